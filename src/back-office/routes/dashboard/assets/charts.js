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
    new uPlot({ width, height: 220, series, axes: [{}, {}] }, [xs, ...columns], target);
  }
  document.addEventListener('DOMContentLoaded', () => document.querySelectorAll('figure[data-chart]').forEach(draw));
})();
