/**
 * The HTML part of every e-mail beside its plain text (issue 22, item 11): the sender's name and
 * logo on top — the organisation's when the mail is about one, else the platform's — then the
 * text with its paragraphs and clickable links. The plain text stays the mail's content; this
 * only dresses it, so both parts always say the same.
 */
export interface MailBrand {
  name: string;
  /** Absolute URL of the organisation's logo (on BASE_URL), if it has one. */
  logoUrl: string | null;
}

export const PLATFORM_BRAND: MailBrand = { name: 'Allmende', logoUrl: null };

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Escaped text with its web addresses as links and its line breaks kept. */
function linked(text: string): string {
  return text
    .split(/(https?:\/\/[^\s<>"]+)/)
    .map((piece, i) => (i % 2 === 1 ? `<a href="${escapeHtml(piece)}">${escapeHtml(piece)}</a>` : escapeHtml(piece)))
    .join('')
    .replace(/\n/g, '<br>\n');
}

export function mailHtml(subject: string, text: string, brand: MailBrand = PLATFORM_BRAND): string {
  const paragraphs = text.split(/\n{2,}/).map((p) => `<p style="margin:0 0 1em">${linked(p)}</p>`).join('\n');
  const logo = brand.logoUrl ? `<img src="${escapeHtml(brand.logoUrl)}" alt="" width="48" height="48" style="vertical-align:middle;margin-right:12px">` : '';
  return `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:0;background:#f4f4f4;font-family:Arial,Helvetica,sans-serif;color:#222">
<div style="max-width:600px;margin:0 auto;background:#fff">
<div style="padding:16px 24px;border-bottom:3px solid #2d6a4f">${logo}<strong style="font-size:18px;vertical-align:middle">${escapeHtml(brand.name)}</strong></div>
<div style="padding:24px;font-size:15px;line-height:1.5">
${paragraphs}
</div></div></body></html>`;
}
