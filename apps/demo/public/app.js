import { brief, clip, clock, fill, h } from './dom.js';
import { renderQuestion } from './question-form.js';
import { renderTimeline } from './timeline.js';
import { renderTrace } from './trace-view.js';

/** Everything the page shows, refreshed from the API and the live event stream. */
const state = {
  tickets: [],
  generations: [],
  pending: [],
  selected: undefined,
  events: [],
  trace: [],
  notice: undefined,
};

const api = async (path, { token, ...options } = {}) => {
  const response = await fetch(path, {
    ...options,
    headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
  });
  const body = await response.json();
  // The desk's own routes say { error: message }; the gateway's { error: { code, message } }.
  if (!response.ok) throw new Error(body.error?.message ?? body.error ?? `HTTP ${response.status}`);
  return body;
};

/** Refreshes started, and the latest whose answers the page shows. */
let refreshesStarted = 0;
let refreshShown = 0;

/**
 * Reads everything again and shows it, unless a refresh started later was shown first: refreshes
 * overlap (every transition asks for one), and an older one answering last would put back a
 * timeline from before the question the page shows, until the next transition (none while paused).
 */
async function refresh() {
  const refreshId = ++refreshesStarted;
  const selected = state.selected;
  refreshing(+1);
  try {
    const [tickets, generations, pending] = await Promise.all([
      api('/api/tickets'),
      api('/api/generations'),
      api('/api/pending'),
    ]);
    // Read after the generations, so the timeline holds every event that led to what they show.
    const [events, trace] =
      selected === undefined
        ? [[], []]
        : await Promise.all([api(`/api/generations/${selected}/events`), api(`/api/generations/${selected}/trace`)]);
    if (refreshId < refreshShown || selected !== state.selected) return;
    refreshShown = refreshId;
    Object.assign(state, { tickets, generations, pending, events, trace });
    render();
  } finally {
    refreshing(-1);
  }
}

/** How many refreshes have not answered yet, on `<body data-refreshing>`: a test waits for 0. */
function refreshing(change) {
  document.body.dataset.refreshing = String(Number(document.body.dataset.refreshing ?? 0) + change);
}

let refreshTimer;
function refreshSoon() {
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(() => void refresh(), 60);
}

async function select(generationId) {
  state.selected = generationId;
  state.events = [];
  state.trace = [];
  state.notice = undefined;
  await refresh();
}

async function run(ticket) {
  const { generationId } = await api(`/api/tickets/${ticket.id}/run`, { method: 'POST' });
  await select(generationId);
}

/** Answers held for a turn that asks several questions, until its last one is answered. */
const drafts = new Map();

/**
 * Answers through the gateway, with the answer token `/api/pending` listed beside each question:
 * a token answers its one question, so a turn's questions go together, each with its own.
 */
async function answer(question, value) {
  try {
    const asked = await waitingQuestions(question.generationId);
    const draft = { ...drafts.get(question.generationId), [question.toolCallId]: value };
    const waitingFor = asked.map((entry) => entry.toolCallId).filter((callId) => !(callId in draft));
    if (waitingFor.length > 0) {
      drafts.set(question.generationId, draft);
      state.notice = `Noted; still waiting for ${waitingFor.join(', ')}.`;
    } else {
      drafts.delete(question.generationId);
      const [token, ...others] = asked.map((entry) => entry.answerToken);
      const outcome = await api(`/v1/generations/${question.generationId}/answers`, {
        method: 'POST',
        token,
        body: JSON.stringify({ answers: draft, ...(others.length > 0 && { answer_tokens: others }) }),
      });
      state.notice =
        outcome.resumed === 'queued'
          ? 'Answered: the worker resumes it from the stored checkpoint.'
          : 'Answered: resumed in the server process (a secret never goes in a job).';
    }
  } catch (error) {
    state.notice = `Not accepted: ${error.message}`;
  }
  await refresh();
}

/** The generation's open questions with their answer tokens, listed again when the page has none yet. */
async function waitingQuestions(generationId) {
  const listed = () => state.pending.filter((entry) => entry.generationId === generationId);
  if (listed().length === 0) state.pending = await api('/api/pending');
  if (listed().length === 0) throw new Error('it is no longer waiting for an answer');
  return listed();
}

async function cancel(generation) {
  try {
    await api(`/api/generations/${generation.generationId}/cancel`, {
      method: 'POST',
      body: JSON.stringify({ reason: 'cancelled at the desk' }),
    });
    state.notice = 'Cancelled: its checkpoint is consumed, and a later answer is refused.';
  } catch (error) {
    state.notice = `Not cancelled: ${error.message}`;
  }
  await refresh();
}

/** "expires in 0:42" for a deadline, counted down by `tickCountdowns` every second. */
function countdownText(expiresAt) {
  const seconds = Math.ceil((Date.parse(expiresAt) - Date.now()) / 1000);
  if (seconds <= 0) return 'expiring…';
  return `expires in ${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

function countdown(expiresAt) {
  if (expiresAt === undefined) return null;
  return h('span', { class: 'countdown', 'data-countdown': expiresAt }, countdownText(expiresAt));
}

function tickCountdowns() {
  for (const element of document.querySelectorAll('[data-countdown]')) {
    element.textContent = countdownText(element.getAttribute('data-countdown'));
  }
}

function render() {
  fill(document.getElementById('tickets'), state.tickets.map(renderTicket));
  fill(document.getElementById('pending'), state.pending.map(renderPending));
  document.getElementById('pending-count').textContent = String(state.pending.length);
  fill(document.getElementById('generations'), state.generations.map(renderGenerationItem));
  renderDetail();
}

function renderTicket(ticket) {
  return h(
    'li',
    { 'data-ticket': ticket.id },
    h(
      'div',
      { class: 'ticket-head' },
      h('strong', {}, `#${ticket.id} ${ticket.customer}`),
      h('span', { class: `story story-${ticket.story}` }, ticket.story),
    ),
    h('div', { class: 'ticket-subject' }, ticket.subject),
    h(
      'div',
      { class: 'ticket-foot' },
      h(
        'span',
        { class: 'muted' },
        `${ticket.agent}.${ticket.action} · ${ticket.storedMessages} ${ticket.storedMessages === 1 ? 'message' : 'messages'} in context`,
      ),
      h('button', { type: 'button', onclick: () => void run(ticket) }, 'Run agent'),
    ),
  );
}

function renderPending(question) {
  const generation = state.generations.find((candidate) => candidate.generationId === question.generationId);
  return h(
    'li',
    {
      'data-pending': question.toolCallId,
      'data-generation': question.generationId,
      onclick: () => void select(question.generationId),
    },
    h('span', { class: `kind kind-${question.kind}` }, question.approval ? 'approval' : question.kind),
    // The list only points at the question: it is shown whole, with a way to expand, once selected.
    h('span', { class: 'pending-prompt' }, brief(question.prompt, 140)),
    h(
      'span',
      { class: 'muted' },
      `${question.agent} · ticket ${generation?.ticketId ?? '?'} · ${clock(question.askedAt)}`,
    ),
    countdown(question.expiresAt),
  );
}

function renderGenerationItem(generation) {
  return h(
    'li',
    {
      class: generation.generationId === state.selected ? 'selected' : undefined,
      'data-generation': generation.generationId,
      onclick: () => void select(generation.generationId),
    },
    h('span', { class: `status status-${generation.status}` }, generation.status.replaceAll('_', ' ')),
    h(
      'span',
      {},
      `${generation.agent}.${generation.action}${generation.ticketId ? ` · #${generation.ticketId}` : ' · delegated'}`,
    ),
    h('code', { class: 'muted' }, generation.generationId.slice(0, 12)),
  );
}

/**
 * The selected generation. Its parts are filled separately so that a refresh never rebuilds a
 * question a person is answering: the question cards are replaced only when the questions change,
 * so typed text (and the focus) survive events that arrive meanwhile.
 */
const view = { generationId: undefined, parts: undefined, questionsKey: undefined };

function renderDetail() {
  const detail = document.getElementById('detail');
  const generation = state.generations.find((candidate) => candidate.generationId === state.selected);
  if (generation === undefined) {
    view.generationId = undefined;
    fill(detail, h('p', { class: 'empty' }, 'Run an agent on a ticket to see its generation here.'));
    return;
  }
  if (view.generationId !== generation.generationId) {
    const parts = {
      head: h('div', { class: 'detail-head' }),
      notice: h('div'),
      questions: h('div'),
      final: h('div'),
      timeline: h('div'),
      trace: h('div'),
    };
    fill(
      detail,
      parts.head,
      parts.notice,
      parts.questions,
      parts.final,
      h('h3', {}, 'Timeline ', h('span', { class: 'muted' }, '(live from the bus)')),
      parts.timeline,
      h('h3', {}, 'Trace ', h('span', { class: 'muted' }, '(OpenTelemetry spans, one tree per run)')),
      parts.trace,
    );
    Object.assign(view, { generationId: generation.generationId, parts, questionsKey: undefined });
  }
  const { parts } = view;
  fill(
    parts.head,
    h(
      'h2',
      {},
      `${generation.agent}.${generation.action}`,
      generation.ticketId ? ` · ticket #${generation.ticketId}` : '',
    ),
    h(
      'span',
      { class: `status status-${generation.status}`, 'data-status': generation.status },
      generation.status.replaceAll('_', ' '),
    ),
    h('code', { class: 'muted', 'data-generation-id': generation.generationId }, generation.generationId),
    countdown(generation.pending.find((question) => question.expiresAt !== undefined)?.expiresAt),
    generation.status === 'awaiting_input'
      ? h(
          'button',
          { type: 'button', class: 'cancel', 'data-cancel': true, onclick: () => void cancel(generation) },
          'Cancel',
        )
      : null,
  );
  fill(parts.notice, state.notice ? h('p', { class: 'notice', 'data-notice': true }, state.notice) : null);
  const questionsKey = generation.pending.map((question) => `${question.toolCallId}@${question.askedAt}`).join('|');
  if (questionsKey !== view.questionsKey) {
    view.questionsKey = questionsKey;
    fill(
      parts.questions,
      generation.pending.map((question) => renderQuestion(question, (value) => void answer(question, value))),
    );
  }
  fill(
    parts.final,
    generation.text !== undefined
      ? h(
          'div',
          { class: 'final', 'data-final-answer': true },
          h('h3', {}, 'Final answer'),
          h('p', {}, clip(generation.text, 600, `final:${generation.generationId}`)),
        )
      : null,
    generation.error !== undefined
      ? h(
          'div',
          { class: 'final failed', 'data-error': true },
          h('h3', {}, 'Failed'),
          h('p', {}, clip(generation.error, 600, `error:${generation.generationId}`)),
        )
      : null,
  );
  fill(parts.timeline, renderTimeline(state.events));
  fill(
    parts.trace,
    renderTrace(state.trace, (generationId) => void select(generationId)),
  );
}

/** Live transitions from the bus: the selected generation's timeline grows as they arrive. */
function connect() {
  const source = new EventSource('/api/events');
  const status = document.getElementById('connection');
  source.onopen = () => {
    status.textContent = 'live';
    status.className = 'connection live';
    // After a reconnect, catch up on whatever happened while the stream was down.
    refreshSoon();
  };
  source.onerror = () => {
    status.textContent = 'reconnecting…';
    status.className = 'connection';
  };
  source.addEventListener('transition', (message) => {
    const event = JSON.parse(message.data);
    if (event.generation_id === state.selected && !state.events.some((known) => known.id === event.id)) {
      state.events.push(event);
    }
    refreshSoon();
  });
}

connect();
void refresh();
setInterval(tickCountdowns, 1_000);
