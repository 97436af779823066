import { brief, clip, h } from './dom.js';

const SHOWN_ATTRIBUTES = [
  'gen_ai.tool.call.arguments',
  'gen_ai.tool.call.result',
  'gen_ai.usage.input_tokens',
  'gen_ai.usage.output_tokens',
  'gen_ai.response.finish_reasons',
  'interlude.outcome',
  'agent.awaiting_input',
];

/**
 * The span tree of each run of a generation (the first run and one per resume), drawn as a
 * waterfall: indentation is nesting, bar offset and width are start and duration in the run. A
 * delegated generation's run shows its own spans and names the caller whose run holds them;
 * `select(generationId)` opens that caller.
 */
export function renderTrace(runs, select) {
  if (runs.length === 0) return h('p', { class: 'empty' }, 'No finished spans yet.');
  return h(
    'div',
    { class: 'trace', 'data-trace': true },
    runs.map((run, index) =>
      h(
        'div',
        { class: 'trace-run' },
        h(
          'h4',
          {},
          `${run.parent ? 'Delegated run' : index === 0 ? 'First run' : `Resume ${index}`} · ${run.durationMs.toFixed(1)} ms · trace ${run.traceId.slice(0, 8)}`,
        ),
        run.parent ? renderParent(run, select) : null,
        flatten(run.roots, 0).map(({ span, depth }) => renderSpan(span, depth, run.durationMs)),
      ),
    ),
  );
}

function renderParent(run, select) {
  const { parent } = run;
  return h(
    'p',
    { class: 'trace-parent', 'data-trace-parent': parent.generationId },
    'Delegated by ',
    h('button', { type: 'button', onclick: () => select(parent.generationId) }, `${parent.agent}.${parent.action}`),
    ' ',
    h('code', {}, parent.generationId),
    `: only this generation's spans are shown; the whole run is in its caller's trace ${run.traceId.slice(0, 8)}.`,
  );
}

function flatten(spans, depth) {
  return spans.flatMap((span) => [{ span, depth }, ...flatten(span.children, depth + 1)]);
}

function renderSpan(span, depth, total) {
  const scale = total > 0 ? 100 / total : 0;
  const details = SHOWN_ATTRIBUTES.filter((key) => span.attributes[key] !== undefined).map(
    (key) => `${key.replace(/^gen_ai\.|^interlude\./, '')}=${span.attributes[key]}`,
  );
  return h(
    'div',
    { class: `span span-${span.status}`, 'data-span': span.name, title: brief(details.join('\n'), 600) },
    h('span', { class: 'span-name', style: `padding-left:${depth * 14}px` }, span.name),
    h(
      'span',
      { class: 'span-track' },
      h('span', {
        class: 'span-bar',
        style: `left:${(span.startMs * scale).toFixed(2)}%;width:${Math.max(span.durationMs * scale, 0.6).toFixed(2)}%`,
      }),
    ),
    h('span', { class: 'span-duration' }, `${span.durationMs.toFixed(1)} ms`),
    details.length > 0
      ? h('span', { class: 'span-details' }, clip(details.join('  '), 300, `span:${span.spanId}`))
      : null,
  );
}
