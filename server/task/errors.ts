import { Code, codeMessage, type Product } from "../../lib/contract/codes";

/** A business answer: every endpoint maps it to HTTP 200 with this code (docs/api.md §1.1). */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export const invalid = (message: string) => new ApiError(Code.INVALID_PARAMS, `${codeMessage(Code.INVALID_PARAMS)}: ${message}`);
export const noPermission = () => new ApiError(Code.NO_PERMISSION, codeMessage(Code.NO_PERMISSION));
export const tooMany = (product: Product, message: string) =>
  new ApiError(product === "videostream" ? Code.STREAM_LIMIT_OR_PULL_FAILED : Code.QPS_LIMIT, `${codeMessage(product === "videostream" ? Code.STREAM_LIMIT_OR_PULL_FAILED : Code.QPS_LIMIT, "en", product)}: ${message}`);
