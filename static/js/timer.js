/* The round clock (templates/tournaments/events/_timer.html): counted down between polls as
   m:ss from data-seconds. The clock is no live region; when it passes 5 minutes, 1 minute and
   0 the milestone is written once into #ev-timer-say (role=status, outside the polled
   fragment), so a screen reader says three things in a round, not one every second. */
(() => {
  const MILESTONES = [[300, "five"], [60, "one"], [0, "time"]];
  let last = null; // the seconds left at the previous tick (or poll)

  function say(left) {
    const box = document.getElementById("ev-timer-say");
    if (!box || last === null) return;
    for (const [at, key] of MILESTONES) {
      if (last > at && left <= at) box.textContent = box.dataset["t" + key[0].toUpperCase() + key.slice(1)] || "";
    }
  }

  function tick() {
    const box = document.getElementById("ev-timer");
    if (!box || !box.dataset.seconds) { last = null; return; }
    const clock = box.querySelector(".ev-clock");
    let left = parseInt(box.dataset.seconds, 10);
    if (box.dataset.running === "1" && left > 0) { left -= 1; box.dataset.seconds = String(left); }
    const m = Math.floor(left / 60), s = left % 60;
    if (clock) clock.textContent = m + ":" + (s < 10 ? "0" : "") + s;
    box.classList.toggle("ev-timeup", left === 0);
    if (box.dataset.running === "1") say(left);
    last = left;
  }
  tick(); setInterval(tick, 1000);
  document.addEventListener("htmx:afterSwap", tick);
})();
