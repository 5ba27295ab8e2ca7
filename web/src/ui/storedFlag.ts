/**
 * A yes/no remembered in this browser (localStorage). Storage can be blocked (private modes,
 * strict settings): then nothing is remembered and the flag reads as unset.
 */
export function readFlag(key: string): boolean {
  try {
    return window.localStorage.getItem(key) === '1';
  } catch {
    return false;
  }
}

export function setFlag(key: string): void {
  try {
    window.localStorage.setItem(key, '1');
  } catch {
    // not remembered; it holds for this visit only
  }
}
