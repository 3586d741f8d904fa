/**
 * The instance's graceful shutdown as seen by the code serving requests. A request that waits for background work
 * (an import for its run, a webhook test for its first attempt) must answer while the HTTP server drains, not be cut
 * at the drain's deadline: its wait ends by the shutdown's answer-by moment, and it answers what it answers when the
 * work outlasts its own limit (the pending record, 202; the work goes on durably, on the next instance if need be).
 */

/** Deadlines of waits inside requests, moved earlier when the instance shuts down. */
export interface Shutdown {
  /** True once the shutdown has begun (the HTTP server is draining). */
  readonly begun: boolean;
  /**
   * Calls `onEnd` once, after `limitMs` milliseconds or at the shutdown's answer-by moment, whichever comes first
   * (at once when that moment has passed). @returns a function cancelling it (idempotent).
   */
  deadline(limitMs: number, onEnd: () => void): () => void;
}

/** The side of {@link Shutdown} that the start-up sequence holds (src/server/start.ts). */
export interface ShutdownControl extends Shutdown {
  /** Begins the shutdown: every deadline, pending or to come, ends at `answerBy` (epoch ms) at the latest. */
  begin(answerBy: number): void;
}

/** One pending {@link Shutdown.deadline}. */
interface Wait {
  endAt: number;
  onEnd: () => void;
  timer: NodeJS.Timeout;
}

/** A {@link ShutdownControl} not begun yet. */
export function createShutdown(): ShutdownControl {
  let answerBy = Number.POSITIVE_INFINITY;
  const waits = new Set<Wait>();
  const arm = (wait: Wait) => {
    clearTimeout(wait.timer);
    wait.timer = setTimeout(
      () => {
        waits.delete(wait);
        wait.onEnd();
      },
      Math.max(0, wait.endAt - Date.now()),
    );
  };
  return {
    get begun() {
      return answerBy !== Number.POSITIVE_INFINITY;
    },
    deadline(limitMs, onEnd) {
      const wait: Wait = { endAt: Math.min(Date.now() + limitMs, answerBy), onEnd, timer: undefined as never };
      waits.add(wait);
      arm(wait);
      return () => {
        clearTimeout(wait.timer);
        waits.delete(wait);
      };
    },
    begin(at) {
      answerBy = Math.min(answerBy, at);
      for (const wait of waits) {
        if (wait.endAt <= answerBy) continue;
        wait.endAt = answerBy;
        arm(wait);
      }
    },
  };
}
