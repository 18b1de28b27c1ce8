// Pure: values that several users hold at once, made by the first and removed by the last: the bookkeeping of
// observe/shared-client-networks.ts, apart from the engine. A value can be closed to new users after a window,
// when the caller says someone elsewhere may be waiting for its key (they get a new one, made once the engine lets go of the old, which the maker's own claim waits for); a key
// whose value is being removed is made again only once the removal is over. Users that keep a value as long as they
// like are told when a new one follows theirs, so that they let go of the old one then. A value closes when its
// window has passed (and someone elsewhere may wait), on a timer: not only when a user of this run asks for its key
// again, which a run whose every scenario waits for another key first never does (#watch).

export interface Held<T> {
  key: string;
  value: Promise<T>;
  users: number;
  since: number;
  /** Which value of its key this is (one closed to new users is followed by another). */
  generation: number;
}

type Listener = () => void;

/** How often a value past its window is looked at again while no one else may want its key (mayClose). */
const WATCH_AGAIN_MS = 2_000;

function unrefTimer(look: () => void, ms: number): () => void {
  const timer = setTimeout(look, ms);
  // A value still held when its run ends is removed by the run's clean-up: the look must not keep the process.
  timer.unref();
  return () => clearTimeout(timer);
}

export class SharedHolds {
  /** What new users join, by key. */
  readonly #held = new Map<string, Held<unknown>>();
  /** Removals under way: the next use of the key waits for them. */
  readonly #leaving = new Map<string, Promise<void>>();
  /** Told when their value is followed by another (whenFollowed). */
  readonly #followers = new Map<Held<unknown>, Listener[]>();
  /** The pending look of each value with a window (#watch), cancelled when it goes. */
  readonly #watches = new Map<Held<unknown>, () => void>();
  #generation = 0;
  #stopped = false;

  constructor(
    private readonly now: () => number = Date.now,
    /** Whether a value past its window is closed to new users now (another user elsewhere is waiting for its
     * key); by default it always is. */
    private readonly mayClose: () => boolean = () => true,
    /** Runs `look` in `ms` (cancelled by what it returns): the timer of #watch; a unit test steps it by hand. */
    private readonly schedule: (look: () => void, ms: number) => () => void = unrefTimer,
  ) {}

  /** Values that are there (made): a window counts from then. */
  readonly #ready = new WeakSet<Held<unknown>>();

  #closed(held: Held<unknown>, windowMs: number | null): boolean {
    // One still being made has taken no users yet: closing it would make a second one beside it, whose claim
    // waits for the first (engine/claim.ts) while the first's users wait for another run.
    return windowMs !== null && this.#ready.has(held) && this.now() - held.since > windowMs && this.mayClose();
  }

  /** The held value of `key`, made when there is none (or when the one there has taken users for `windowMs`). */
  async take<T>(key: string, windowMs: number | null, make: () => Promise<T>): Promise<Held<T>> {
    for (;;) {
      const leaving = this.#leaving.get(key);
      if (leaving !== undefined) {
        await leaving;
        continue;
      }
      let held = this.#held.get(key) as Held<T> | undefined;
      // Closed to new users: those on it finish and the last removes it; the next is made at once, and its maker
      // waits for what the engine still holds (a network's claim waits for the old one, as another run's would).
      if (held !== undefined && this.#closed(held, windowMs)) {
        this.#held.delete(key);
        this.#followed(held);
        held = undefined;
      }
      if (held === undefined) {
        const made: Held<T> = { key, value: make(), users: 0, since: this.now(), generation: ++this.#generation };
        held = made;
        this.#held.set(key, made);
        // What could not be made is not kept: the next scenario tries again.
        made.value.then(
          () => {
            // The window counts from when the value is there: a network's make may have waited minutes for
            // another run to let go of its subnet.
            made.since = this.now();
            this.#ready.add(made);
            if (windowMs !== null && this.#held.get(key) === made) this.#watch(made, windowMs);
          },
          () => {
            if (this.#held.get(key) === made) this.#held.delete(key);
          },
        );
      }
      held.users++;
      try {
        await held.value;
        return held;
      } catch (error) {
        held.users--;
        throw error;
      }
    }
  }

  /** One more user of a value the caller holds already (so it is not being removed): a lane's seats staying on a
   * network after the scenario that joined it has left. */
  again<T>(held: Held<T>): Held<T> {
    held.users++;
    return held;
  }

  /** Whether new users still join this value: it is its key's current one and its window has not passed. Users
   * that may keep a value as long as they like (seats) leave one that is closed, so that it drains. */
  isOpen(held: Held<unknown>, windowMs: number | null): boolean {
    return this.#held.get(held.key) === held && !this.#closed(held, windowMs);
  }

  /** Calls `listener` once `held` is followed by a new value of its key, which waits for it to drain (at once when
   * it is not its key's current value). A user that may hold a value as long as it likes (a lane's seats) lets go
   * then instead of when it next looks: a scenario waiting for the new value may be the one holding it up. */
  whenFollowed(held: Held<unknown>, listener: Listener): void {
    if (this.#held.get(held.key) !== held) {
      listener();
      return;
    }
    const listeners = this.#followers.get(held) ?? [];
    listeners.push(listener);
    this.#followers.set(held, listeners);
  }

  /** Closes `held` once its window has passed and mayClose says so, without waiting for a new user to ask for its
   * key: its stayers are told then (whenFollowed) and let go, so that it drains. Closing only when this run asked
   * for the key again deadlocked two runs: run B's lane stayed on its network of subnet Q while B's scenario waited
   * for subnet P, which a scenario of run A held while waiting for Q. No scenario of B asked for Q again (they all
   * waited for P first), so B's network of Q never closed, and both waited until their time limits (issue 33). */
  #watch(held: Held<unknown>, windowMs: number): void {
    if (this.#stopped) return;
    const look = (): void => {
      this.#watches.delete(held);
      if (this.#held.get(held.key) !== held) return;
      if (this.#closed(held, windowMs)) {
        this.#held.delete(held.key);
        this.#followed(held);
        return;
      }
      // Within its window, or past it with no one else who may want its key: look again (mayClose changes when
      // another run starts).
      this.#watches.set(held, this.schedule(look, Math.max(windowMs - (this.now() - held.since), 0) + WATCH_AGAIN_MS));
    };
    this.#watches.set(held, this.schedule(look, Math.max(windowMs - (this.now() - held.since), 0) + 1));
  }

  /** Ends every look at a window (#watch): the values' owner is done with them. */
  stop(): void {
    for (const cancel of this.#watches.values()) cancel();
    this.#watches.clear();
    this.#stopped = true;
  }

  #unwatch(held: Held<unknown>): void {
    this.#watches.get(held)?.();
    this.#watches.delete(held);
  }

  #followed(held: Held<unknown>): void {
    this.#unwatch(held);
    const listeners = this.#followers.get(held) ?? [];
    this.#followers.delete(held);
    for (const listener of listeners) listener();
  }

  async give<T>(held: Held<T>, remove: (value: T) => Promise<void>): Promise<void> {
    held.users--;
    if (held.users > 0) return;
    await this.#remove(held, remove);
  }

  /** Gives a value back but keeps it for the next user, also when this was the last: it is removed only by
   * `removeIdle` (a shared network's clients, removed with their network). */
  keep(held: Held<unknown>): void {
    held.users--;
  }

  /** Removes the kept values that no one uses and `which` picks. */
  async removeIdle<T>(which: (key: string) => boolean, remove: (value: T) => Promise<void>): Promise<void> {
    const idle = [...this.#held.values()].filter((held) => held.users <= 0 && which(held.key)) as Array<Held<T>>;
    await Promise.all(idle.map((held) => this.#remove(held, remove)));
  }

  async #remove<T>(held: Held<T>, remove: (value: T) => Promise<void>): Promise<void> {
    if (this.#held.get(held.key) === held) this.#held.delete(held.key);
    // No one holds it any more: nothing to tell.
    this.#followers.delete(held);
    this.#unwatch(held);
    const removal = held.value.then(remove, () => undefined).finally(() => {
      if (this.#leaving.get(held.key) === removal) this.#leaving.delete(held.key);
    });
    this.#leaving.set(held.key, removal);
    await removal;
  }
}
