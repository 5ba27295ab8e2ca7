/** What a visitor does when reaching for a control: the app starts then. */
const INTENTS = ['pointerdown', 'touchstart', 'keydown', 'focusin'] as const;

/** A press, as the page's controls may read it (a menu opens on `pointerdown`, a button on `click`). */
const PRESS = ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click'] as const;

/**
 * Starts the app (`start`, resolving once React has taken over `root`) on the visitor's first
 * intent. Until it has started:
 * - a click on a link goes through: the browser opens that page, which the server draws; so
 *   does one on a native box or radio button (and its label), which the browser checks;
 * - any other press (its pointer and mouse events and its click) and a form's submission wait,
 *   and happen again, in order, once the app runs: React keeps the page's elements when it
 *   takes over, so they reach the same element, now with the app's handlers;
 * - what was typed into a field stays, and is handed to the app as typed (`handOver`).
 * `islands` are the page's small behaviours that run before the app (`boot.ts`): each stops as
 * the app starts, which takes over what they drew.
 */
export function startOnFirstIntent(
  root: HTMLElement,
  start: () => Promise<void>,
  islands: (() => void)[] = [],
): void {
  const held: Event[] = [];
  // What was typed, by field: React may draw a field again with the app's (empty) value as it
  // takes the page over, before the typed text is handed to it.
  const typed = new Map<Field, string>();
  const keep = (field: EventTarget | null) => {
    if (isField(field) && !isBox(field) && field.type !== 'file') typed.set(field, field.value);
  };
  const keepTyped = (event: Event) => keep(event.target);
  let starting = false;

  const hold = (event: Event) => {
    const target = event.target;
    if (!(target instanceof Element) || !root.contains(target)) return;
    // A link, and a box or radio button with its label, work without the app: the browser
    // opens the page, or checks the control, which the app takes over as it starts.
    if (
      event.type === 'click' &&
      target.closest('a[href], label, input[type=checkbox], input[type=radio]')
    )
      return;
    // What the browser would do at once (check a box, submit a form) waits for the app too.
    if (event.type === 'click' || event.type === 'submit') {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
    held.push(event);
    begin();
  };

  const begin = () => {
    if (starting) return;
    starting = true;
    for (const type of INTENTS) window.removeEventListener(type, begin, true);
    for (const stop of islands) stop();
    void start().then(async () => {
      for (const type of [...PRESS, 'submit']) window.removeEventListener(type, hold, true);
      window.removeEventListener('input', keepTyped, true);
      for (const [field, text] of typed) await handOver(field, text);
      for (const event of held.splice(0)) {
        await takenOver(event.target as Element);
        redo(event);
      }
    });
  };

  for (const type of [...PRESS, 'submit']) window.addEventListener(type, hold, true);
  window.addEventListener('input', keepTyped, true);
  for (const field of fieldsOf(root)) if (changed(field)) keep(field);
  for (const type of INTENTS)
    window.addEventListener(type, begin, { capture: true, passive: true });
  // Reached for before this script ran (a slow network): no intent is left to wait for.
  if (touched(root)) begin();
}

type Field = HTMLInputElement | HTMLTextAreaElement;
const isField = (target: EventTarget | null): target is Field =>
  target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement;
const isBox = (field: Field) => /^(checkbox|radio)$/.test(field.type);
const fieldsOf = (root: HTMLElement) => root.querySelectorAll<Field>('input, textarea');
/** Changed since the page was drawn. */
const changed = (field: Field) =>
  field instanceof HTMLInputElement && isBox(field)
    ? field.checked !== field.defaultChecked
    : field.value !== field.defaultValue;

/** A control of the page has the focus, or was changed, since the page arrived. */
function touched(root: HTMLElement) {
  const focused = document.activeElement;
  if (focused && focused !== document.body && root.contains(focused)) return true;
  return [...fieldsOf(root)].some(changed);
}

/**
 * Resolves once React has taken over `element` (`mark`: a key React puts on the elements it
 * holds; React offers no public way to ask), or after 10 s. A part the app loads lazily (a menu) is taken over only once its code
 * has arrived, after the rest.
 */
async function takenOver(element: Element, mark = '__reactProps$') {
  const deadline = performance.now() + 10_000;
  while (!Object.keys(element).some((key) => key.startsWith(mark))) {
    if (performance.now() > deadline) return;
    await new Promise(requestAnimationFrame);
  }
}

/** The event again, on the same element, as the app's handlers expect it. */
function redo(event: Event) {
  const target = event.target as Element;
  if (!target.isConnected) return;
  if (event instanceof SubmitEvent) {
    (target as HTMLFormElement).requestSubmit(
      event.submitter instanceof HTMLButtonElement ? event.submitter : null,
    );
    return;
  }
  // The event's own properties (coordinates, button, pointer type) as the new one's.
  const Kind = event.constructor as typeof MouseEvent;
  target.dispatchEvent(new Kind(event.type, event as MouseEvent));
}

/**
 * Hands text typed before the app ran to the app: React holds the field's value as it last knew
 * it, so an input event with that value would change nothing. The field is set, through React's
 * own tracking of it, to something else, then to the typed text behind it; the input event that
 * follows reaches the app's `onChange` with the typed text.
 */
async function handOver(field: Field, text: string) {
  if (!field.isConnected) return;
  // Its tracking of the field's value, which the handing over goes through.
  await takenOver(field, '_valueTracker');
  const setNative = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field), 'value')?.set;
  field.value = text === '' ? ' ' : '';
  setNative?.call(field, text);
  field.dispatchEvent(new Event('input', { bubbles: true }));
}
