// The two forms of an avatar upload (docs/protocol.md §3.2), read into image bytes and a zone that lies inside the image.
import { HttpError, httpErrorOf, invalidField } from '../../http/http-error.ts';
import { checkNumber, rejectUnknownFields, type Body } from '../../parsers/body-fields.ts';
import { decodeImageData } from '../../parsers/image-data.ts';
import { inspectImage, type ImageInfo } from '../../parsers/image-info.ts';
import { parseMultipart, type MultipartLimits, type PartInfo } from '../../parsers/multipart.ts';

const ZONE_FIELDS = ['x', 'y', 'width', 'height'] as const;
const UPLOAD_FIELDS = ['avatar', ...ZONE_FIELDS] as const;
const KIB = 1024;

export interface Zone {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface AvatarUpload {
  bytes: Buffer;
  image: ImageInfo;
  zone: Zone;
}

/**
 * Limits of the multipart form: the file as large as --max-avatar-bytes, four short numbers, headers a
 * browser sends with a long filename. Every part beyond the five known ones is refused by name before
 * its content is read, so maxParts only bounds what a client can send before that.
 */
export function multipartLimits(maxAvatarBytes: number): MultipartLimits {
  return { maxFileBytes: maxAvatarBytes, maxFieldBytes: 64, maxParts: 8, maxHeaderBytes: 2 * KIB };
}

/**
 * The 413 of an avatar upload names the image limit (--max-avatar-bytes), not the body's byte count,
 * whichever count noticed it first: the declared or streamed body, the file part, or the decoded image.
 */
export function avatarTooLarge(maxAvatarBytes: number): HttpError {
  const mib = maxAvatarBytes % (KIB * KIB) === 0 ? `${maxAvatarBytes / (KIB * KIB)} MiB, ` : '';
  return invalidField('avatar', `the image is over the avatar size limit of ${maxAvatarBytes} bytes (${mib}--max-avatar-bytes)`, 'ERR_BODY_TOO_LARGE');
}

/** The whole multipart body: the image plus 16 KiB for the delimiters, part headers and numbers. */
export function multipartBodyLimit(maxAvatarBytes: number): number {
  return maxAvatarBytes + 16 * KIB;
}

/**
 * The whole JSON body: the base64 of the largest image (4 characters per 3 bytes), 10% more for base64
 * wrapped at 76 characters (an escaped CRLF is 4 bytes a line, 5.3%) or JSON that escapes `/` as `\/`
 * (1.6%), and 16 KiB for a `data:` prefix and the zone.
 */
export function jsonBodyLimit(maxAvatarBytes: number): number {
  return Math.ceil(Math.ceil(maxAvatarBytes / 3) * 4 * 1.1) + 16 * KIB;
}

/** The JSON form: `{"avatar": "<base64 or data: URL>", "x", "y", "width", "height"}`; the zone as JSON numbers. */
export function validateJsonUpload(body: Body, limits: UploadLimits): AvatarUpload {
  rejectUnknownFields(body, UPLOAD_FIELDS);
  for (const field of UPLOAD_FIELDS) if (!(field in body)) throw invalidField(field, 'is required');
  const data = body['avatar'];
  if (typeof data !== 'string') throw invalidField('avatar', 'must be a base64 string or a data: URL');
  const bytes = decodeImageData(data);
  for (const field of ZONE_FIELDS) if (typeof body[field] !== 'number') throw invalidField(field, 'must be a number');
  return checkUpload(bytes, readZone((field) => body[field]), limits);
}

/**
 * The multipart form (RFC 7578): one file part `avatar` and the text parts `x`, `y`, `width`, `height`
 * (decimal numbers). An unknown, repeated or misplaced part is refused as soon as its headers are read;
 * passing a limit is a 413 at once. `body` must be limited already (limitBody).
 */
export async function readMultipartUpload(body: AsyncIterable<Buffer>, contentType: string, limits: UploadLimits): Promise<AvatarUpload> {
  let inImage = false;
  const checkAndTrack = (part: PartInfo, repeated: boolean): void => {
    checkPart(part, repeated);
    inImage = part.name === 'avatar';
  };
  const { fields, files } = await parseMultipart(body, contentType, multipartLimits(limits.maxAvatarBytes), { checkPart: checkAndTrack }).catch((error: unknown) => {
    // The file part passing maxFileBytes is the image passing its limit: say so in those words.
    throw inImage && httpErrorOf(error)?.code === 'ERR_BODY_TOO_LARGE' ? avatarTooLarge(limits.maxAvatarBytes) : error;
  });
  // checkPart lets through one file part at most, and only as `avatar`.
  const file = files[0]?.data;
  if (file === undefined) throw invalidField('avatar', 'is required');
  for (const field of ZONE_FIELDS) if (!fields.has(field)) throw invalidField(field, 'is required');
  return checkUpload(file, readZone((field) => fields.get(field)), limits);
}

/** RFC 7578 §4.2: a part with a filename is a file; `avatar` must be one, the zone parts must not. */
function checkPart(part: PartInfo, repeated: boolean): void {
  const { name, filename } = part;
  if (!(UPLOAD_FIELDS as readonly string[]).includes(name)) throw invalidField(name, 'is not a known field');
  if (repeated) throw invalidField(name, 'appears more than once');
  if (name === 'avatar' && filename === undefined) throw invalidField(name, 'must be a file part (with a filename)');
  if (name !== 'avatar' && filename !== undefined) throw invalidField(name, 'must be a text part, not a file');
}

function readZone(valueOf: (field: (typeof ZONE_FIELDS)[number]) => unknown): Zone {
  return {
    x: checkNumber(valueOf('x'), 'x'),
    y: checkNumber(valueOf('y'), 'y'),
    width: checkNumber(valueOf('width'), 'width'),
    height: checkNumber(valueOf('height'), 'height'),
  };
}

export interface UploadLimits {
  maxAvatarBytes: number;
  maxAvatarPixels: number;
}

/**
 * The size limit, the image recognised by its bytes (the declared type is never read) and checked whole
 * (415 when no known type, 400 when cut short, corrupt or with other bytes riding along), its pixel
 * count under the limit, then the zone.
 */
function checkUpload(bytes: Buffer, zone: Zone, limits: UploadLimits): AvatarUpload {
  const { maxAvatarBytes, maxAvatarPixels } = limits;
  if (bytes.length > maxAvatarBytes) throw avatarTooLarge(maxAvatarBytes);
  const check = inspectImage(bytes);
  if (check.kind === 'unknown') throw invalidField('avatar', 'is not a PNG, JPEG, GIF or WebP image', 'ERR_UNSUPPORTED_IMAGE');
  if (check.kind === 'invalid') throw invalidField('avatar', `is not a whole ${check.contentType} file: it ${check.reason}`, 'ERR_BAD_IMAGE');
  const image = check.info;
  if (image.width * image.height > maxAvatarPixels) {
    throw invalidField('avatar', `is ${image.width}x${image.height} pixels, over the limit of ${maxAvatarPixels}`, 'ERR_BAD_IMAGE');
  }
  checkZone(zone, image);
  return { bytes, image, zone };
}

/** docs/protocol.md §3.2: the zone lies inside the image; a zone that overflows names its width or height. */
function checkZone(zone: Zone, image: ImageInfo): void {
  if (zone.x < 0) throw invalidField('x', 'must be at least 0');
  if (zone.y < 0) throw invalidField('y', 'must be at least 0');
  if (zone.width <= 0) throw invalidField('width', 'must be greater than 0');
  if (zone.height <= 0) throw invalidField('height', 'must be greater than 0');
  if (zone.x + zone.width > image.width) throw invalidField('width', `x + width must be at most the image width, ${image.width}`);
  if (zone.y + zone.height > image.height) throw invalidField('height', `y + height must be at most the image height, ${image.height}`);
}

/** A 415 for a body that is neither form; Accept-Post (W3C LDP §7.1) says which are. */
export function unsupportedUploadType(accepted: readonly string[], what = 'the avatar'): HttpError {
  return new HttpError('ERR_UNSUPPORTED_MEDIA_TYPE', `Send ${what} as ${accepted.join(' or ')}`, { headers: { 'Accept-Post': accepted.join(', ') } });
}
