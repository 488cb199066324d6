// The page script's plain helpers (docs/html.md): times in the reader's locale, the avatar form's zone filled in, and
// files pasted or dropped on the composer added to its file input (docs/protocol.md §15). Every page works without them.

/**
 * Localises every <time datetime> on load and in each part of the page another part replaced: a part that swaps
 * markup in announces it with `document.dispatchEvent(new CustomEvent('chat:updated', { detail: root }))`.
 */
export const PAGE_BASICS = `
  const localise = (root) => {
    for (const node of root.querySelectorAll('time[datetime]')) {
      const date = new Date(node.getAttribute('datetime'));
      if (Number.isNaN(date.getTime())) continue;
      node.title = node.getAttribute('datetime');
      // The chat screen's times of day and its day separators (days at UTC, as the server grouped them).
      const format = node.dataset.format;
      node.textContent = format === 'time' ? date.toLocaleTimeString(undefined, { timeStyle: 'short' })
        : format === 'day' ? date.toLocaleDateString(undefined, { dateStyle: 'full', timeZone: 'UTC' })
          : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
    }
  };
  localise(document);
  document.addEventListener('chat:updated', (event) => localise(event.detail || document));
  const file = document.querySelector('input[type=file][name=avatar]');
  if (file && window.URL && URL.createObjectURL) {
    file.addEventListener('change', () => {
      const chosen = file.files && file.files[0];
      if (!chosen) return;
      const image = new Image();
      image.onload = () => {
        const side = Math.min(image.naturalWidth, image.naturalHeight);
        const zone = { x: Math.floor((image.naturalWidth - side) / 2), y: Math.floor((image.naturalHeight - side) / 2), width: side, height: side };
        for (const [name, value] of Object.entries(zone)) {
          const input = file.form.elements.namedItem(name);
          if (input && input.value === '') input.value = String(value);
        }
        URL.revokeObjectURL(image.src);
      };
      image.src = URL.createObjectURL(chosen);
    });
  }
  const attach = document.querySelector('input[type=file][name=file]');
  if (attach && window.DataTransfer) {
    const add = (files) => {
      if (!files || files.length === 0) return false;
      const all = new DataTransfer();
      for (const chosen of [...attach.files, ...files]) all.items.add(chosen);
      attach.files = all.files;
      return true;
    };
    attach.form.addEventListener('paste', (event) => { if (add(event.clipboardData && event.clipboardData.files)) event.preventDefault(); });
    attach.form.addEventListener('dragover', (event) => event.preventDefault());
    attach.form.addEventListener('drop', (event) => { if (add(event.dataTransfer && event.dataTransfer.files)) event.preventDefault(); });
  }
`;
