import { MAX_BLOCKS } from "~/models/forms/certificates";
import type { CertificateBlock, CertificateLayout } from "~/models/certificate-templates.server";

/** The empty slot under a template's blocks, for a new one. */
const NEW_BLOCK: CertificateBlock = { text: "", x: 10, y: 80, width: 80, size: 14, align: "center", bold: false, color: "#1f2937" };

/** The editor form's values of a layout: the blocks in slots (and an empty one for a new block), ticks as "on". */
export function templateDefaults(name: string, layout: CertificateLayout, ticked: number[], isDefault: boolean) {
  const blocks: Array<CertificateBlock | null> = [...layout.blocks, ...(layout.blocks.length < MAX_BLOCKS ? [null] : [])];
  const on = (b: boolean) => (b ? "on" : undefined);
  const slots = blocks.map((block, i) => {
    const b = block ?? NEW_BLOCK;
    const n = (part: string) => `block_${i}_${part}`;
    return {
      [n("text")]: b.text,
      [n("x")]: String(b.x),
      [n("y")]: String(b.y),
      [n("width")]: String(b.width),
      [n("size")]: String(b.size),
      [n("align")]: b.align,
      [n("color")]: b.color,
      [n("bold")]: on(b.bold),
    };
  });
  return Object.assign(
    {
      name,
      page_size: layout.pageSize,
      orientation: layout.orientation,
      background_file_id: layout.backgroundFileId ? String(layout.backgroundFileId) : "",
      show_logo: on(layout.showLogo),
      show_qr: on(layout.showQr),
      is_default: on(isDefault),
      course_id: ticked.map(String),
      block_count: String(blocks.length),
    },
    ...slots,
  );
}
