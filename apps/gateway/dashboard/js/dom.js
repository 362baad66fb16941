// Building elements and the page's fixed parts. Nothing here injects HTML or sets inline styles:
// the page's CSP allows neither.

const APP_NAME = 'Credit dashboard';

/** The shell's elements (index.html); module scripts run once it is parsed. */
export const els = {
  main: document.getElementById('main'),
  view: document.getElementById('view'),
  message: document.getElementById('message'),
  accountBar: document.getElementById('account-bar'),
};

/** Builds an element: `props` are attributes or `on…` listeners; children are nodes, text or arrays of them. */
export function h(tag, props, ...children) {
  return build(document.createElement(tag), props, children);
}

export function svg(tag, props, ...children) {
  return build(document.createElementNS('http://www.w3.org/2000/svg', tag), props, children);
}

function build(el, props, children) {
  for (const [name, value] of Object.entries(props || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith('on')) el.addEventListener(name.slice(2), value);
    else el.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

export function setTitle(title) {
  document.title = `${title} — ${APP_NAME}`;
}

/** Puts text (or nodes) in the live region; kind is 'info', 'success' or 'error'. */
export function showMessage(content, kind) {
  els.message.className = `message message--${kind || 'info'}`;
  els.message.replaceChildren();
  if (content) els.message.append(h('p', {}, content));
}
