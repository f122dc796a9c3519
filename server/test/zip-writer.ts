import { deflateRawSync } from 'node:zlib';

/**
 * A minimal ZIP writer for tests (APPNOTE 6.3, no ZIP64). Tests need archives no honest tool
 * makes — names that climb out of the folder, sizes that lie, encryption flags without a
 * password — so every header field that matters to the reader can be set by hand.
 */
export interface ZipEntrySpec {
  /** Written byte for byte: a string is encoded as UTF-8 (and flagged so), a Buffer as is. */
  name: string | Buffer;
  data?: Buffer | string;
  /** A number writes `data` as is under that method code (12 is bzip2, which few readers know). */
  method?: 'store' | 'deflate' | number;
  /** Bytes stored as the entry's data instead of its compressed form, to damage it on purpose. */
  storedBytes?: Buffer;
  /** Unix mode (type and permission bits) for the external attributes; a plain file or folder by default. */
  unixMode?: number;
  /** Sets the "encrypted" flag and prefixes the 12-byte header of traditional encryption. */
  isEncrypted?: boolean;
  /** The uncompressed size the headers claim, when a test wants them to lie. */
  declaredSize?: number;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, index) => {
  let value = index;
  for (let bit = 0; bit < 8; bit += 1) {
    value = value & 1 ? 0xedb88320 ^ (value >>> 1) : value >>> 1;
  }
  return value >>> 0;
});

/** CRC-32 as ZIP uses it (reflected, polynomial 0xEDB88320). */
export function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc = (CRC_TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  }
  return (crc ^ 0xffffffff) >>> 0;
}

const FLAG_ENCRYPTED = 0x0001;
const FLAG_UTF8 = 0x0800;
const VERSION_NEEDED = 20;
// Upper byte 3 says "made on Unix", so readers take the mode from the attributes' upper half.
const VERSION_MADE_BY_UNIX = (3 << 8) | VERSION_NEEDED;
// 1980-01-01 00:00:00, the first moment MS-DOS dates can hold.
const DOS_DATE = (0 << 9) | (1 << 5) | 1;
const DOS_TIME = 0;

interface PreparedEntry {
  name: Buffer;
  flags: number;
  method: number;
  crc: number;
  compressed: Buffer;
  declaredSize: number;
  externalAttributes: number;
  offset: number;
}

function prepare(spec: ZipEntrySpec): Omit<PreparedEntry, 'offset'> {
  const name = typeof spec.name === 'string' ? Buffer.from(spec.name, 'utf8') : spec.name;
  const data = typeof spec.data === 'string' ? Buffer.from(spec.data) : (spec.data ?? Buffer.alloc(0));
  const method = spec.method === 'deflate' ? 8 : spec.method === 'store' ? 0 : (spec.method ?? 0);
  let compressed = spec.storedBytes ?? (method === 8 ? deflateRawSync(data) : data);
  let flags = typeof spec.name === 'string' ? FLAG_UTF8 : 0;
  if (spec.isEncrypted) {
    flags |= FLAG_ENCRYPTED;
    compressed = Buffer.concat([Buffer.alloc(12, 0x5a), compressed]);
  }
  const isDirectory = name.at(-1) === 0x2f;
  // The low byte holds the MS-DOS attributes; 0x10 marks a directory.
  const unixMode = spec.unixMode ?? (isDirectory ? 0o040755 : 0o100644);
  const externalAttributes = ((unixMode << 16) | (isDirectory ? 0x10 : 0)) >>> 0;
  return {
    name,
    flags,
    method,
    crc: crc32(data),
    compressed,
    declaredSize: spec.declaredSize ?? data.length,
    externalAttributes,
  };
}

function localHeader(entry: PreparedEntry): Buffer {
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(VERSION_NEEDED, 4);
  header.writeUInt16LE(entry.flags, 6);
  header.writeUInt16LE(entry.method, 8);
  header.writeUInt16LE(DOS_TIME, 10);
  header.writeUInt16LE(DOS_DATE, 12);
  header.writeUInt32LE(entry.crc, 14);
  header.writeUInt32LE(entry.compressed.length, 18);
  header.writeUInt32LE(entry.declaredSize, 22);
  header.writeUInt16LE(entry.name.length, 26);
  header.writeUInt16LE(0, 28);
  return Buffer.concat([header, entry.name]);
}

function centralHeader(entry: PreparedEntry): Buffer {
  const header = Buffer.alloc(46);
  header.writeUInt32LE(0x02014b50, 0);
  header.writeUInt16LE(VERSION_MADE_BY_UNIX, 4);
  header.writeUInt16LE(VERSION_NEEDED, 6);
  header.writeUInt16LE(entry.flags, 8);
  header.writeUInt16LE(entry.method, 10);
  header.writeUInt16LE(DOS_TIME, 12);
  header.writeUInt16LE(DOS_DATE, 14);
  header.writeUInt32LE(entry.crc, 16);
  header.writeUInt32LE(entry.compressed.length, 20);
  header.writeUInt32LE(entry.declaredSize, 24);
  header.writeUInt16LE(entry.name.length, 28);
  // Extra field length, comment length, disk number start, internal attributes: all zero.
  header.writeUInt32LE(entry.externalAttributes, 38);
  header.writeUInt32LE(entry.offset, 42);
  return Buffer.concat([header, entry.name]);
}

function endOfCentralDirectory(count: number, size: number, offset: number): Buffer {
  const record = Buffer.alloc(22);
  record.writeUInt32LE(0x06054b50, 0);
  record.writeUInt16LE(count, 8);
  record.writeUInt16LE(count, 10);
  record.writeUInt32LE(size, 12);
  record.writeUInt32LE(offset, 16);
  return record;
}

/** The whole archive in memory: local headers with data, then the central directory. */
export function buildZip(specs: ZipEntrySpec[]): Buffer {
  if (specs.length > 0xffff) {
    throw new Error('This writer does not write ZIP64; keep to 65,535 entries.');
  }
  const parts: Buffer[] = [];
  const entries: PreparedEntry[] = [];
  let offset = 0;
  for (const spec of specs) {
    const entry = { ...prepare(spec), offset };
    const local = localHeader(entry);
    parts.push(local, entry.compressed);
    offset += local.length + entry.compressed.length;
    entries.push(entry);
  }
  const central = Buffer.concat(entries.map(centralHeader));
  return Buffer.concat([...parts, central, endOfCentralDirectory(entries.length, central.length, offset)]);
}
