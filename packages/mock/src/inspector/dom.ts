/**
 * The inspector's whole "framework": `h()` builds elements from plain values. Text always goes in
 * as text nodes (never as HTML), so a ticket message or a request body cannot inject markup.
 */

/** A child of {@link h}: nodes and text; `null`, `undefined` and `false` are skipped. */
export type Child = Node | string | number | null | undefined | false | Child[]

/** Attributes and listeners of {@link h}: `on*` functions become listeners, `false`/`null` drops one. */
export type Props = Record<string, string | number | boolean | null | undefined | ((event: Event) => void)>

/** Creates an element with attributes, listeners and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props | null = null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag)
  for (const [name, value] of Object.entries(props ?? {})) {
    if (typeof value === 'function') element.addEventListener(name.slice(2).toLowerCase(), value)
    else if (value === true) element.setAttribute(name, '')
    else if (value !== false && value !== null && value !== undefined)
      element.setAttribute(name, String(value))
  }
  append(element, children)
  return element
}

function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue
    if (Array.isArray(child)) append(parent, child)
    else parent.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)))
  }
}

/** Replaces the children of `parent`. */
export function replace(parent: Element, ...children: Child[]): void {
  parent.replaceChildren()
  append(parent, children)
}

/** The element with this id, which the page's skeleton guarantees. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id)
  if (!element) throw new Error(`inspector: no #${id} in the page`)
  return element as T
}
