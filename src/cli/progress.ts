import cliProgress from 'cli-progress';

export type Progress = (done: number) => void;

/** A progress bar on stderr (stdout stays clean for data and keys); silent when not a terminal. */
export function progressBar(label: string, total: number): { tick: Progress; stop(): void } {
  if (!process.stderr.isTTY) return { tick: () => undefined, stop: () => undefined };
  const bar = new cliProgress.SingleBar(
    { format: `${label} [{bar}] {percentage}% {value}/{total} {eta_formatted}`, stream: process.stderr, hideCursor: true },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0);
  return { tick: (done) => bar.update(done), stop: () => bar.stop() };
}
