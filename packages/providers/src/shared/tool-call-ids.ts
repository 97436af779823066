/**
 * Hands out the ids a turn's tool calls are known by. Core keys answers, results and checkpoints
 * by call id, so every call of a turn needs one of its own: some OpenAI-compatible servers send
 * none (Gemini's compatible endpoint answers `"id": ""`) or give two parallel calls the same one.
 * A call keeps the server's id when it is usable; otherwise it gets `interlude_<turn>_<position>`,
 * where `turn` is how many messages preceded the answer, so the same answer always gets the same
 * ids (a stream and its JSON twin agree, a replay is stable) and ids do not repeat across the
 * turns of one conversation. The made-up id is stored in the turn and sent back in the call and
 * its result alike, which is what compatible servers accept: they pair results with calls by id,
 * or by position when the ids were theirs to ignore.
 *
 * Ids are given in call order, one at a time, so a stream can name each call as it completes and
 * still agree with the whole answer read at the end.
 *
 * @example
 * const ids = createToolCallIds(request.messages.length);
 * ids.next(''); // 'interlude_3_0'
 * ids.next('call_a'); // 'call_a'
 * ids.next('call_a'); // 'interlude_3_2'
 */
export function createToolCallIds(turn: number) {
  const used = new Set<string>();
  let position = 0;
  return {
    next(serverId: string | null | undefined): string {
      let id = serverId ?? '';
      if (id === '' || used.has(id)) {
        id = `interlude_${turn}_${position}`;
        for (let attempt = 1; used.has(id); attempt += 1) id = `interlude_${turn}_${position}_${attempt}`;
      }
      used.add(id);
      position += 1;
      return id;
    },
  };
}

/** A turn's made-up ids: `createToolCallIds(turn)` over ids that arrive all at once. */
export function uniqueToolCallIds(serverIds: readonly (string | null | undefined)[], turn: number): string[] {
  const ids = createToolCallIds(turn);
  return serverIds.map((id) => ids.next(id));
}
