/**
 * A tiny element builder: `h('button', { class: 'primary', onclick }, 'Approve')`. Text always
 * goes in through text nodes, never as HTML, so nothing a model or a person wrote can inject markup.
 */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false || value === null) continue;
    if (name.startsWith('on')) element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat(Number.POSITIVE_INFINITY)) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

/**
 * Replaces the children of `element`, leaving in place each one that is the same as its
 * replacement. The page redraws on every event; swapping a button for its twin between a press
 * and its release loses the click (a "Run agent" pressed while another generation's events
 * arrived did nothing). Handlers only read what their element itself shows (a ticket's, a
 * generation's id), so keeping the old twin keeps what it does.
 */
export function fill(element, ...children) {
  const next = children
    .flat(Number.POSITIVE_INFINITY)
    .filter(Boolean)
    .map((child) => (child instanceof Node ? child : document.createTextNode(String(child))));
  const shown = [...element.childNodes];
  next.forEach((child, index) => {
    const old = shown[index];
    if (old === undefined) element.append(child);
    else if (!old.isEqualNode(child)) old.replaceWith(child);
  });
  for (const surplus of shown.slice(next.length)) surplus.remove();
}

/** The clipped texts a person opened, by place: a refresh that rebuilds one keeps it open. */
const opened = new Set();

/**
 * Text that may be long — a person's 24,000-character answer comes back in the next question, the
 * timeline, the trace and the final answer — cut to `limit` characters, with a button to show it
 * all and to fold it again. `place` names where it is shown (the view redraws often), so it stays
 * open across redraws. Short text is returned as is.
 */
export function clip(text, limit, place) {
  if (text.length <= limit) return text;
  // Never split a surrogate pair: half an emoji would show as a replacement character.
  const cut = /[\uD800-\uDBFF]/.test(text[limit - 1]) ? limit - 1 : limit;
  const holder = h('span', { class: 'clip', 'data-clip': place });
  const draw = () => {
    const open = opened.has(place);
    const toggle = h(
      'button',
      {
        type: 'button',
        class: 'clip-toggle',
        'aria-expanded': String(open),
        onclick: (event) => {
          event.stopPropagation();
          if (open) opened.delete(place);
          else opened.add(place);
          draw();
        },
      },
      open ? 'Show less' : `Show all ${text.length.toLocaleString('en')} characters`,
    );
    fill(holder, h('span', { class: 'clip-text' }, open ? text : `${text.slice(0, cut)}…`), toggle);
  };
  draw();
  return holder;
}

/** Short JSON for one line of the timeline. */
export function brief(value, limit = 160) {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
}

export function clock(time) {
  return new Date(time).toLocaleTimeString([], { hour12: false });
}
