// The one failure of the image parsers: the bytes start like an image but are not a whole, consistent one.

export class ImageFormatError extends Error {
  override name = 'ImageFormatError';
}

export interface Dimensions {
  width: number;
  height: number;
}

export function fail(reason: string): never {
  throw new ImageFormatError(reason);
}

/** Throws unless `end` lies within the bytes: a structure that runs past the end is a truncated file. */
export function need(bytes: Buffer, end: number, what: string): void {
  if (end > bytes.length) fail(`is cut short inside ${what}`);
}
