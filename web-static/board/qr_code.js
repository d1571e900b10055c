// @ts-check
// A link as a QR code, drawn in this browser (vendor/qrcode/, Debian's node-qrcode-generator):
// the link's secret never goes to a server to be drawn. Loaded the first time one is asked for.

/**
 * Shows `text` as a QR code in `img` (a GIF data URL: the Content-Security-Policy allows `data:`
 * images, and an <img> needs no markup built from strings).
 * @param {HTMLImageElement} img @param {string} text
 */
export async function drawQrCode(img, text) {
  const { default: qrcode } = await import("../vendor/qrcode/qrcode.js");
  // Type 0: the smallest version that holds the text; M: 15% of it may be lost and still read.
  const code = qrcode(0, "M");
  code.addData(text);
  code.make();
  img.src = code.createDataURL(4, 16);
  img.alt = `QR code of ${text.split("#")[0]}`;
}
