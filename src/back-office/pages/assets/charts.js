// Charts of the home page: each <figure data-chart> holds its numbers in a <table> (the same numbers, one click away
// and readable without colour); this draws them with uPlot. Series differ by dash pattern and marker as well as colour.
(() => {
  const DASHES = [[], [6, 4], [2, 3], [10, 3, 2, 3]];
  const COLOURS = ['#1f5fbf', '#b3261e', '#2e7d32', '#6a1b9a'];
  function draw(figure) {
    const table = figure.querySelector('table');
    const target = figure.querySelector('.chart');
    if (!table || !target || typeof uPlot === 'undefined') return;
    const headers = [...table.querySelectorAll('thead th')].map((cell) => cell.textContent.trim());
    const rows = [...table.querySelectorAll('tbody tr')].map((row) => [...row.children].map((cell) => cell.dataset.value ?? cell.textContent.trim()));
    if (rows.length === 0) return;
    const xs = rows.map((row) => Date.parse(`${row[0]}T00:00:00Z`) / 1000);
    const columns = headers.slice(1).map((_, index) => rows.map((row) => Number(row[index + 1])));
    const series = [
      {},
      ...headers.slice(1).map((label, index) => ({
        label,
        stroke: COLOURS[index % COLOURS.length],
        dash: DASHES[index % DASHES.length],
        width: 2,
        points: { show: true, size: 6 + index * 2 },
      })),
    ];
    const width = Math.max(280, Math.min(target.clientWidth || 600, 900));
    // one tick per day at most (labelled MM-DD), whatever the width; the legend names the series without live values
    const everyNth = Math.max(1, Math.ceil(xs.length / Math.floor(width / 60)));
    const daySplits = () => xs.filter((_, index) => index % everyNth === 0);
    const dayLabel = (_u, splits) => splits.map((x) => new Date(x * 1000).toISOString().slice(5, 10));
    const axes = [{ splits: daySplits, values: dayLabel }, {}];
    new uPlot({ width, height: 220, series, axes, legend: { live: false } }, [xs, ...columns], target);
  }
  document.addEventListener('DOMContentLoaded', () => document.querySelectorAll('figure[data-chart]').forEach(draw));
})();
