import type { TestApp } from "../helpers/app.ts";

/** Sends a file as the whole body of `POST /v1/admin/media`. */
export function upload(
  t: TestApp,
  key: string,
  bytes: Uint8Array | string,
  contentType: string,
  headers: Record<string, string> = {},
) {
  return t.json("/v1/admin/media", {
    method: "POST",
    headers: { "x-api-key": key, "content-type": contentType, ...headers },
    body: bytes,
  });
}

/** Sends a `multipart/form-data` form (Bun writes the boundary) to `POST /v1/admin/media`. */
export function uploadForm(t: TestApp, key: string, form: FormData) {
  return t.json("/v1/admin/media", { method: "POST", headers: { "x-api-key": key }, body: form });
}

/** The rows of the organization's media table, read from its tenant file. */
export function storedMedia(t: TestApp, orgId: string) {
  return t.app.ctx.tenants.with(
    orgId,
    (tenant) =>
      tenant.sqlite.query("SELECT id, content_type, bytes, sha256 FROM media ORDER BY id").all() as {
        id: string;
        content_type: string;
        bytes: number;
        sha256: string;
      }[],
  );
}

/** A response's body as bytes (typed as any `Uint8Array`, to compare with the files sent). */
export const bytesOf = async (response: Response): Promise<Uint8Array> =>
  new Uint8Array(await response.arrayBuffer());
