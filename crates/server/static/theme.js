// The colour scheme the player chose with the toggle, applied before the
// page paints (a classic script in <head>, so there is no flash of the
// other scheme). Without a choice, the CSS follows the system's.
try {
  const chosen = localStorage.getItem('tessera-theme');
  if (chosen === 'light' || chosen === 'dark') document.documentElement.dataset.theme = chosen;
} catch { /* storage may be off: follow the system */ }
