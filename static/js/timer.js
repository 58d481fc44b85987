/* Count the round timer down between polls: mm:ss from data-seconds. */
(() => {
  function tick() {
    const box = document.getElementById("ev-timer");
    if (!box || !box.dataset.seconds) return;
    const clock = box.querySelector(".ev-clock");
    let left = parseInt(box.dataset.seconds, 10);
    if (box.dataset.running === "1" && left > 0) { left -= 1; box.dataset.seconds = String(left); }
    const m = Math.floor(left / 60), s = left % 60;
    if (clock) clock.textContent = m + ":" + (s < 10 ? "0" : "") + s;
    box.classList.toggle("ev-timeup", left === 0);
  }
  tick(); setInterval(tick, 1000);
  document.addEventListener("htmx:afterSwap", tick);
})();
