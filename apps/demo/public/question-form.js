import { clip, h } from './dom.js';

/**
 * Where a person answers a paused generation: Approve/Decline for a confirm, one button per
 * option for a choice, a text box for text, a password field for a secret. `send(value)` posts
 * the answer; a secret's field is cleared as soon as it is sent and its value never shown.
 */
export function renderQuestion(question, send) {
  const title = question.approval ? `Approval gate: ${question.toolName}` : `${question.toolName} asks`;
  const place = `question:${question.generationId}:${question.toolCallId}`;
  return h(
    'div',
    { class: `question question-${question.kind}`, 'data-question': question.toolCallId, 'data-kind': question.kind },
    h('div', { class: 'question-title' }, title, h('code', {}, question.toolCallId)),
    h('p', { class: 'question-prompt' }, clip(question.prompt, 400, `${place}:prompt`)),
    question.arguments !== undefined
      ? h('p', { class: 'question-arguments' }, clip(JSON.stringify(question.arguments), 160, `${place}:arguments`))
      : null,
    renderControls(question, send),
  );
}

function renderControls(question, send) {
  const decline = h('button', { type: 'button', class: 'decline', onclick: () => send(false) }, 'Decline');
  if (question.kind === 'confirm') {
    return h(
      'div',
      { class: 'controls' },
      h('button', { type: 'button', class: 'primary', onclick: () => send(true) }, 'Approve'),
      decline,
    );
  }
  if (question.kind === 'choice') {
    return h(
      'div',
      { class: 'controls' },
      question.options.map((option) => {
        const labelled = option !== null && typeof option === 'object' && 'value' in option;
        const value = labelled ? option.value : option;
        return h(
          'button',
          { type: 'button', class: 'option', onclick: () => send(value) },
          labelled ? option.label : String(value),
        );
      }),
      decline,
    );
  }
  const secret = question.kind === 'secret';
  const input = h('input', {
    type: secret ? 'password' : 'text',
    name: secret ? 'secret' : 'answer',
    autocomplete: secret ? 'new-password' : 'off',
    placeholder: secret ? 'never shown, never stored' : 'Type the answer',
    required: true,
  });
  const form = h(
    'form',
    {
      class: 'controls',
      onsubmit: (event) => {
        event.preventDefault();
        const value = input.value;
        input.value = '';
        if (value.trim() !== '') send(value);
      },
    },
    input,
    h('button', { type: 'submit', class: 'primary' }, secret ? 'Send secret' : 'Send'),
    decline,
  );
  return secret
    ? [
        form,
        h('p', { class: 'hint' }, 'A secret cannot travel in a job, so this answer resumes in the server process.'),
      ]
    : form;
}
