import S3rver from "s3rver";

// A local S3 server from npm (s3rver), run as a process of its own by s3.ts: a bucket is another
// machine's service, and in the test's own process its answers would wait for whatever the test
// does meanwhile (the orders it places, its collector), holding back Litestream's uploads.
// Environment: S3_DIRECTORY (where it keeps the objects), S3_BUCKET. Prints `listening on 127.0.0.1:<port>`.
//
// Two things of s3rver's file store differ from S3 and matter to Litestream, so its store's
// `listObjects` is wrapped here: keys come in the directory's order, where S3 lists them sorted (a
// restore takes the first WAL segment listed as the initial one); and a listing with a delimiter
// misses a common prefix whose directory holds only more directories (Litestream's
// `<db>/generations/<id>/…`). The wrapper sorts the full listing of the prefix and does the
// delimiter's grouping itself.

type Listed = { objects: { key: string }[]; commonPrefixes: string[]; isTruncated: boolean };
type ListOptions = { delimiter?: string; prefix?: string; startAfter?: string; maxKeys?: number };

const bucket = process.env.S3_BUCKET ?? "shops";
const server = new S3rver({
  port: 0,
  address: "127.0.0.1",
  directory: process.env.S3_DIRECTORY ?? "",
  silent: true,
  configureBuckets: [{ name: bucket, configs: [] }],
});
const store = (server as unknown as { store: { listObjects(b: string, o: ListOptions): Promise<Listed> } })
  .store;
const listAll = store.listObjects.bind(store);
store.listObjects = async (name, options) => {
  const { delimiter, prefix = "", maxKeys = Number.POSITIVE_INFINITY } = options;
  const all = await listAll(name, { ...options, delimiter: "", maxKeys: Number.POSITIVE_INFINITY });
  all.objects.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const commonPrefixes = new Set<string>();
  const objects = all.objects.filter((object) => {
    if (!delimiter) return true;
    const rest = object.key.slice(prefix.length);
    const at = rest.indexOf(delimiter);
    if (at === -1) return true;
    commonPrefixes.add(prefix + rest.slice(0, at + 1));
    return false;
  });
  return {
    objects: objects.slice(0, maxKeys),
    commonPrefixes: [...commonPrefixes].sort(),
    isTruncated: objects.length > maxKeys,
  };
};
const { port } = (await server.run()) as { port: number };
console.log(`listening on 127.0.0.1:${port}`);
process.on("SIGTERM", async () => {
  await server.close();
  process.exit(0);
});
