// Ctrl-C and SIGTERM while a command runs containers: the first one aborts the work (the run removes its
// containers and networks, a fleet keeps its journal) and says so; a second one leaves at once (exit 130). Every
// command that runs scenarios goes through here, so they all stop the same way.
import { EXIT } from "./exit-status.ts";

export async function interruptible<T>(work: (signal: AbortSignal) => Promise<T>, what = "removing the run's containers and networks"): Promise<T> {
  const controller = new AbortController();
  let interrupts = 0;
  const onSignal = (): void => {
    interrupts++;
    if (interrupts > 1) process.exit(EXIT.interrupted);
    process.stderr.write(`\ninterrupted: ${what} (Ctrl-C again to leave now)\n`);
    controller.abort();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    return await work(controller.signal);
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}
