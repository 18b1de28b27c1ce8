import { describe, expect, it, vi } from "vitest";
import type { SendingClient } from "../../../harness/clients/client-container.ts";
import { LazyLocalClient } from "../../../harness/clients/local-client.ts";

function fakeClient() {
  const remove = vi.fn(async () => undefined);
  return { client: { container: { remove } } as unknown as SendingClient, remove };
}

describe("LazyLocalClient", () => {
  it("starts nothing and removes nothing when no request asks for it", async () => {
    const start = vi.fn(async () => fakeClient().client);
    await new LazyLocalClient(start).remove();
    expect(start).not.toHaveBeenCalled();
  });

  it("starts the client at the first request only, and removes it once done", async () => {
    const { client, remove } = fakeClient();
    const start = vi.fn(async () => client);
    const local = new LazyLocalClient(start);
    const [first, second] = await Promise.all([local.get(), local.get()]);
    expect(await local.get()).toBe(first);
    expect(second).toBe(first);
    expect(start).toHaveBeenCalledTimes(1);
    await local.remove();
    expect(remove).toHaveBeenCalledTimes(1);
  });

  it("lets the request that started it see a failed start, and then removes quietly (the run scope holds what was made)", async () => {
    const local = new LazyLocalClient(async () => {
      throw new Error("no such image");
    });
    await expect(local.get()).rejects.toThrow("no such image");
    await expect(local.remove()).resolves.toBeUndefined();
  });

  it("leaves a client it does not own (a seat's holder) in place", async () => {
    const { client, remove } = fakeClient();
    const local = new LazyLocalClient(async () => client, { owned: false });
    expect(await local.get()).toBe(client);
    await local.remove();
    expect(remove).not.toHaveBeenCalled();
  });
});
