/** A promise a test opens when it chooses: a job body waits on `passed` until `open()`. */
export function gate(): { passed: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const passed = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { passed, open };
}
