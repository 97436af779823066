import type { RequestParameters } from '@interlude/core/provider';

/** The request parameters an adapter sends, with the unset ones left out (what traces show as `gen_ai.request.*`). */
export function requestParameters(
  parameters: { [Name in keyof RequestParameters]: number | undefined },
): RequestParameters {
  const set: RequestParameters = {};
  for (const [name, value] of Object.entries(parameters) as [keyof RequestParameters, number | undefined][]) {
    if (value !== undefined) set[name] = value;
  }
  return set;
}
