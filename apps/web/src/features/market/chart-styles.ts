/** The app's fonts on the chart (a canvas cannot read CSS variables; klinecharts would fall back to serif). */
const FONT = '-apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Noto Sans", sans-serif';
const TEXT = { family: FONT, color: '#848e9c' };
const MARK = { text: { family: FONT } };

/** The dark chart of every K-line in the app: green up, red down, muted axes. */
export const CHART_STYLES = {
  grid: { horizontal: { color: '#2b3139' }, vertical: { color: '#2b3139' } },
  candle: {
    bar: {
      upColor: '#0ecb81',
      downColor: '#f6465d',
      upBorderColor: '#0ecb81',
      downBorderColor: '#f6465d',
      upWickColor: '#0ecb81',
      downWickColor: '#f6465d',
    },
    priceMark: { high: { textFamily: FONT }, low: { textFamily: FONT }, last: MARK },
    tooltip: { text: TEXT },
  },
  indicator: { tooltip: { text: TEXT } },
  xAxis: { tickText: TEXT },
  yAxis: { tickText: TEXT },
  crosshair: { horizontal: { text: MARK.text }, vertical: { text: MARK.text } },
};

/** Chart options: no "0.0{3}3" folding of small amounts (18 zeros never fit a tooltip anyway). */
export const CHART_OPTIONS = { styles: CHART_STYLES, decimalFoldThreshold: 18 };

/** The time-share line: the closes as an accent area. */
export const AREA_STYLE = {
  lineColor: '#f5a524',
  backgroundColor: [
    { offset: 0, color: 'rgba(245, 165, 36, 0.01)' },
    { offset: 1, color: 'rgba(245, 165, 36, 0.2)' },
  ],
};
