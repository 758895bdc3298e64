import { useMutation } from "@tanstack/react-query";
import { api, unwrap } from "./api.ts";
import type { Image } from "./product-editor.tsx";
import { Alert, Field } from "./ui.tsx";

// A product's images in their order: each file is uploaded to the shop's media at once and the
// product points at its URL when it is saved. Removing one here leaves the file in the media.

interface Props {
  images: Image[];
  onChange: (images: Image[]) => void;
  at: (path: string) => string | undefined;
}

export function ProductImages({ images, onChange, at }: Props) {
  const upload = useMutation({
    mutationFn: async (files: File[]) => {
      const uploaded: Image[] = [];
      for (const file of files) {
        // The API takes the file's bytes as the body with their type; openapi-fetch would JSON-encode it.
        const media = await unwrap(
          api.POST("/v1/admin/media", {
            body: file,
            bodySerializer: (body) => body as File,
            headers: { "content-type": file.type || "application/octet-stream" },
          }),
        );
        uploaded.push({ url: media.url, alt: "" });
      }
      return uploaded;
    },
    onSuccess: (uploaded) => onChange([...images, ...uploaded]),
  });
  const move = (from: number, to: number) => {
    const next = [...images];
    const [image] = next.splice(from, 1);
    next.splice(to, 0, image!);
    onChange(next);
  };
  return (
    <div className="space-y-3">
      {images.length === 0 && <p className="text-sm text-slate-600">No images yet.</p>}
      <ol className="space-y-3">
        {images.map((image, index) => (
          <ImageRow
            key={image.url}
            image={image}
            index={index}
            count={images.length}
            onAlt={(alt) => onChange(images.map((other, i) => (i === index ? { ...other, alt } : other)))}
            onMove={(to) => move(index, to)}
            onRemove={() => onChange(images.filter((_, i) => i !== index))}
            error={at(`images/${index}/alt`) ?? at(`images/${index}/url`)}
          />
        ))}
      </ol>
      <Field
        label="Upload images"
        type="file"
        multiple
        accept="image/jpeg,image/png,image/webp,image/avif,image/gif"
        hint="JPEG, PNG, WebP, AVIF or GIF, at most 5 MiB each"
        disabled={upload.isPending}
        onChange={(e) => {
          const files = [...(e.target.files ?? [])];
          e.target.value = "";
          if (files.length) upload.mutate(files);
        }}
      />
      {upload.isPending && <p role="status">Uploading…</p>}
      {upload.error && <Alert>{upload.error.message}</Alert>}
    </div>
  );
}

interface RowProps {
  image: Image;
  index: number;
  count: number;
  onAlt: (alt: string) => void;
  onMove: (to: number) => void;
  onRemove: () => void;
  error: string | undefined;
}

function ImageRow({ image, index, count, onAlt, onMove, onRemove, error }: RowProps) {
  const n = index + 1;
  return (
    <li className="flex flex-wrap items-end gap-3 rounded-md border border-slate-200 p-3">
      <img src={image.url} alt={image.alt} className="size-20 rounded object-cover" />
      <div className="min-w-48 flex-1">
        <Field
          label={`Alt text of image ${n}`}
          value={image.alt}
          onChange={(e) => onAlt(e.target.value)}
          error={error}
        />
      </div>
      <button
        type="button"
        className="btn btn-secondary"
        disabled={index === 0}
        onClick={() => onMove(index - 1)}
      >
        Move image {n} up
      </button>
      <button
        type="button"
        className="btn btn-secondary"
        disabled={index === count - 1}
        onClick={() => onMove(index + 1)}
      >
        Move image {n} down
      </button>
      <button type="button" className="btn btn-secondary" onClick={onRemove}>
        Remove image {n}
      </button>
    </li>
  );
}
