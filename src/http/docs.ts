/** A document the service serves as it is (the API reference page and what it loads). */
export interface StaticAsset {
  path: string;
  contentType: string;
  body: string | Uint8Array;
  /** Extra response headers, such as the page's Content-Security-Policy. */
  headers?: Record<string, string>;
}

/** The interactive API reference: the page and the viewer it loads, for the document at `specUrl`. */
export function docsAssets(specUrl: string): StaticAsset[] {
  const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Commerce API reference</title>
</head>
<body>
<script id="api-reference" data-url="${specUrl}"></script>
<script src="https://cdn.jsdelivr.net/npm/@scalar/api-reference"></script>
</body>
</html>
`;
  return [{ path: "/v1/docs", contentType: "text/html; charset=utf-8", body: page }];
}
