/**
 * React Router keeps scroll positions (in session storage) by the key of the history entry, and
 * an entry opened by a full page load has none of its own: every such load shares the key
 * 'default', so an address typed into a tab opened at the position of another page. Each such
 * entry gets its own key, kept in its history state: a new load starts at the top, while back,
 * forward and reload find the position of their own entry.
 *
 * Returns whether the entry is new (opened by this load, so nothing is saved for it).
 */
export function keyThisHistoryEntry(): boolean {
  const state: unknown = window.history.state;
  const current = state !== null && typeof state === 'object' ? state : {};
  if (typeof (current as { key?: unknown }).key === 'string') return false;
  const key = Math.random().toString(36).slice(2, 10);
  window.history.replaceState({ ...current, key }, '');
  return true;
}
