import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeBodyTo } from "../../src/core/body.ts";
import { ApiError } from "../../src/core/errors.ts";

// writeBodyTo: a request body too large to hold in memory, written to a file as it arrives.

const dir = mkdtempSync(join(tmpdir(), "commerce-body-to-file-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const nextFile = () => join(dir, `body-${++files}`);

/** A POST whose body is `parts`, sent as a stream (no declared length), then `end` ("close" or an error). */
function streamed(parts: Uint8Array[], end: "close" | Error = "close", headers: Record<string, string> = {}) {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      if (end === "close") controller.close();
      else controller.error(end);
    },
  });
  return new Request("http://localhost/upload", {
    method: "POST",
    body,
    headers,
    duplex: "half",
  } as RequestInit);
}

const bytes = (length: number, fill: number) => new Uint8Array(length).fill(fill);

/** The ApiError `run` rejects with. */
async function refusal(run: Promise<unknown>): Promise<ApiError> {
  const error = await run.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe("writeBodyTo", () => {
  test("writes a streamed body's chunks to a new file, in order and whole", async () => {
    const file = nextFile();
    const parts = [bytes(70_000, 1), bytes(3, 2), bytes(200_000, 3)];
    await writeBodyTo(streamed(parts), file, 1_000_000);
    expect(new Uint8Array(readFileSync(file))).toEqual(new Uint8Array(Buffer.concat(parts)));
  });

  test("a body over the limit, declared or not, is a 413; a declared one is refused before a file is made", async () => {
    const undeclared = await refusal(writeBodyTo(streamed([bytes(600, 1), bytes(600, 2)]), nextFile(), 1000));
    expect(undeclared.status).toBe(413);
    const file = nextFile();
    const declared = await refusal(
      writeBodyTo(
        new Request("http://localhost/upload", {
          method: "POST",
          body: bytes(1001, 1),
          headers: { "content-length": "1001" },
        }),
        file,
        1000,
      ),
    );
    expect(declared.status).toBe(413);
    expect(existsSync(file)).toBe(false);
  });

  test("a body cut short (the sender gone) is the client's 400, not a server error", async () => {
    const cut = await refusal(
      writeBodyTo(streamed([bytes(5000, 1)], new Error("reset")), nextFile(), 1_000_000),
    );
    expect(cut.status).toBe(400);
    expect(cut.code).toBe("VALIDATION_ERROR");
  });

  test("an existing file is not overwritten", async () => {
    const file = nextFile();
    await writeBodyTo(streamed([bytes(10, 7)]), file, 100);
    await expect(writeBodyTo(streamed([bytes(10, 8)]), file, 100)).rejects.toThrow();
    expect(new Uint8Array(readFileSync(file))).toEqual(bytes(10, 7));
  });
});
