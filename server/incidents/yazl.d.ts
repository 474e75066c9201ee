// The part of yazl (3.x, no bundled types) this module uses.
declare module "yazl" {
  import type { Readable } from "node:stream";
  interface EntryOptions {
    mtime?: Date;
    mode?: number;
    compress?: boolean;
  }
  class ZipFile {
    outputStream: Readable;
    addBuffer(buffer: Buffer, metadataPath: string, options?: EntryOptions): void;
    end(options?: { forceZip64Format?: boolean }, callback?: (totalSize: number) => void): void;
  }
  const yazl: { ZipFile: typeof ZipFile };
  export default yazl;
  export { ZipFile };
}
