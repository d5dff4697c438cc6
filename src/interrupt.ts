/**
 * SIGINT and SIGTERM while a command measures (S11): the first stops the run through an
 * AbortSignal, and the run ends with every finished pair kept in its results file. What a signal
 * prints, and what a second one does, is the caller's: the command line exits at once on a second
 * one, the action leaves a second of the same kind to Node.js (the step ends). Imports nothing.
 */

export type StopSignal = 'SIGINT' | 'SIGTERM';

export interface Interrupt {
  /** aborted by the first signal */
  readonly signal: AbortSignal;
  /** when the first signal came (Date.now()), null until one has */
  readonly at: number | null;
  /** stops listening; in a `finally`, once the run is over */
  dispose(): void;
}

/**
 * Listens for SIGINT and SIGTERM until `dispose()`. Each one calls `onSignal` with its name and
 * how many have come so far (1 for the first), then aborts `signal`. `once`: each kind is heard
 * once, so that a second of the same kind gets Node.js's default (the process ends).
 */
export function onInterrupt(onSignal: (sig: StopSignal, count: number) => void = () => {}, opts: { once?: boolean } = {}): Interrupt {
  const controller = new AbortController();
  let count = 0;
  let at: number | null = null;
  const listen = (sig: StopSignal) => () => {
    count++;
    at ??= Date.now();
    onSignal(sig, count);
    controller.abort();
  };
  const onInt = listen('SIGINT');
  const onTerm = listen('SIGTERM');
  process[opts.once ? 'once' : 'on']('SIGINT', onInt);
  process[opts.once ? 'once' : 'on']('SIGTERM', onTerm);
  return {
    signal: controller.signal,
    get at() {
      return at;
    },
    dispose() {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
    },
  };
}
