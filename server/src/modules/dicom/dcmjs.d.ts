/**
 * The part of dcmjs 0.50 this module uses; dcmjs ships no type declarations. Kept to what the
 * code calls, so a dcmjs upgrade that changes these shapes fails here first.
 */
declare module 'dcmjs' {
  /** One element as dcmjs reads it: close to DICOM JSON, with binary values as ArrayBuffers. */
  export interface DcmjsElement {
    vr?: string;
    Value?: unknown;
  }
  export type DcmjsDataset = Record<string, DcmjsElement>;

  export interface DcmjsReadOptions {
    ignoreErrors?: boolean;
    /** The tag (8 hex digits) at which reading stops; its value is left unread. */
    untilTag?: string | null;
    includeUntilTagValue?: boolean;
    noCopy?: boolean;
    forceStoreRaw?: boolean;
  }

  interface DcmjsTag {
    toString(): string;
  }

  interface DcmjsLogger {
    setLevel(level: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'silent'): void;
    getLogger(name: string): DcmjsLogger;
  }

  const dcmjs: {
    data: {
      DicomMessage: {
        readFile(buffer: ArrayBuffer, options?: DcmjsReadOptions): { meta: DcmjsDataset; dict: DcmjsDataset };
        lookupTag(tag: DcmjsTag): { vr: string } | undefined;
      };
      DicomMetaDictionary: {
        naturalizeDataset(dataset: DcmjsDataset): Record<string, unknown>;
      };
      /** A Part 10 file to write: its meta header, then `dict`, the dataset by tag (reports module). */
      DicomDict: new (meta: DcmjsDataset) => { dict: DcmjsDataset; write(): ArrayBuffer };
      Tag: {
        fromNumbers(group: number, element: number): DcmjsTag;
      };
    };
    log: DcmjsLogger;
  };
  export default dcmjs;
}
