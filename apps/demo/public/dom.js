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

/** Replaces the children of `element`. */
export function fill(element, ...children) {
  element.replaceChildren();
  for (const child of children.flat(Number.POSITIVE_INFINITY)) if (child) element.append(child);
}

/** Short JSON for one line of the timeline. */
export function brief(value, limit = 160) {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
}

export function clock(time) {
  return new Date(time).toLocaleTimeString([], { hour12: false });
}
