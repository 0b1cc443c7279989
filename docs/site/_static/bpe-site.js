// The reading copy's one script: a stepper's frames were computed when the site was built
// (bpe_workshop.render.style.frames_html: gzipped JSON in base64, the first frame shown).
// Unpack them and add back/next buttons and a slider that show frame k. Nothing is fetched.
async function unpackFrames(packed) {
  const bytes = Uint8Array.from(atob(packed), (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return JSON.parse(await new Response(stream).text());
}

async function addControls(block) {
  const frames = await unpackFrames(block.dataset.frames);
  const last = frames.length - 1;
  const view = document.createElement("div");
  view.className = "bpe-frame";
  view.innerHTML = frames[0];
  const controls = document.createElement("div");
  controls.className = "bpe-frame-controls";
  controls.innerHTML =
    `<button type="button" class="bpe-back" aria-label="one step back">◀</button>` +
    `<input type="range" min="0" max="${last}" value="0" aria-label="step">` +
    `<button type="button" class="bpe-next" aria-label="one step forward">▶</button>` +
    `<output>step 0 of ${last}</output>`;
  const [back, slider, next, label] = controls.children;
  const show = (k) => {
    const step = Math.min(last, Math.max(0, k));
    slider.value = step;
    label.textContent = `step ${step} of ${last}`;
    view.innerHTML = frames[step];
  };
  slider.addEventListener("input", () => show(Number(slider.value)));
  back.addEventListener("click", () => show(Number(slider.value) - 1));
  next.addEventListener("click", () => show(Number(slider.value) + 1));
  block.replaceChildren(controls, view);
}

document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll(".bpe-frames").forEach(addControls);
});
