import { saveHref } from './download.ts';

/**
 * Draws a shareable poster (the futures position poster, the invitation
 * poster) on a canvas and saves it as a PNG (no extra library).
 */
export type PosterTheme = 'profit' | 'loss' | 'invite';

export interface PosterContent {
  theme: PosterTheme;
  title: string;
  /** The big line: a position's profit percent, an invitation's code. */
  headline: string;
  rows: [string, string][];
  caption: string;
  qr: HTMLCanvasElement | null;
}

const WIDTH = 600;
const HEIGHT = 900;
const THEMES = {
  profit: { top: '#0b3d2e', bottom: '#0b0e11', accent: '#0ecb81' },
  loss: { top: '#4a1520', bottom: '#0b0e11', accent: '#f6465d' },
  invite: { top: '#4a3510', bottom: '#0b0e11', accent: '#f5a524' },
} as const satisfies Record<PosterTheme, { top: string; bottom: string; accent: string }>;
/** The headline's largest size; a longer headline is drawn smaller to fit the card. */
const HEADLINE_PX = 96;
const MARGIN = 60;

export function drawPoster(canvas: HTMLCanvasElement, content: PosterContent): void {
  canvas.width = WIDTH;
  canvas.height = HEIGHT;
  const context = canvas.getContext('2d');
  if (!context) return;
  const theme = THEMES[content.theme];
  const gradient = context.createLinearGradient(0, 0, 0, HEIGHT);
  gradient.addColorStop(0, theme.top);
  gradient.addColorStop(1, theme.bottom);
  context.fillStyle = gradient;
  context.fillRect(0, 0, WIDTH, HEIGHT);
  context.textAlign = 'center';
  context.fillStyle = '#eaecef';
  context.font = '600 32px sans-serif';
  context.fillText(content.title, WIDTH / 2, 90);
  context.fillStyle = theme.accent;
  context.font = `700 ${HEADLINE_PX}px sans-serif`;
  const fit = Math.min(1, (WIDTH - 2 * MARGIN) / context.measureText(content.headline).width);
  context.font = `700 ${Math.floor(HEADLINE_PX * fit)}px sans-serif`;
  context.fillText(content.headline, WIDTH / 2, 230);
  context.font = '24px sans-serif';
  content.rows.forEach(([label, value], index) => {
    const y = 320 + index * 52;
    context.textAlign = 'left';
    context.fillStyle = '#848e9c';
    context.fillText(label, MARGIN, y);
    context.textAlign = 'right';
    context.fillStyle = '#eaecef';
    context.fillText(value, WIDTH - MARGIN, y);
  });
  if (content.qr) {
    const size = 180;
    context.fillStyle = '#ffffff';
    context.fillRect(MARGIN - 8, HEIGHT - size - 68, size + 16, size + 16);
    context.drawImage(content.qr, MARGIN, HEIGHT - size - 60, size, size);
  }
  context.textAlign = 'left';
  context.fillStyle = '#848e9c';
  context.font = '22px sans-serif';
  wrapText(context, content.caption, 270, HEIGHT - 170, WIDTH - 270 - 40, 30);
}

/** Fills `text` over as many lines as it needs within `maxWidth` (words, or characters for CJK text without spaces). */
function wrapText(
  context: CanvasRenderingContext2D,
  text: string,
  x: number,
  y: number,
  maxWidth: number,
  lineHeight: number,
): void {
  const pieces = text.includes(' ')
    ? text.split(' ').map((word, index) => (index === 0 ? word : ` ${word}`))
    : [...text];
  let line = '';
  let row = 0;
  for (const piece of pieces) {
    const candidate = line + piece;
    if (line !== '' && context.measureText(candidate).width > maxWidth) {
      context.fillText(line, x, y + row * lineHeight);
      row += 1;
      line = piece.trimStart();
    } else {
      line = candidate;
    }
  }
  context.fillText(line, x, y + row * lineHeight);
}

export function downloadCanvas(canvas: HTMLCanvasElement, fileName: string): void {
  saveHref(canvas.toDataURL('image/png'), fileName);
}
