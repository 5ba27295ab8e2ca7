/**
 * Ends the current task and resumes in a new one, so the browser may paint and answer input in
 * between. Start-up work awaited at a module's top level after this runs as its own task: a
 * phone's main thread then has several shorter tasks instead of one long one (total blocking
 * time counts each task's time beyond 50 ms). A message, not `setTimeout`: timers are clamped
 * and throttled in background tabs.
 */
export function yieldToBrowser(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}
