import { folderOf, listFolders } from '../link-urls.ts';

/**
 * Whether a missing non-page file is certainly missing, or this checkout may simply not hold its
 * kind of file: binary assets kept in Git LFS, a sparse checkout, a copy of the text files only.
 * A file is expected when its folder exists and the checkout holds other files of its extension
 * (a missing `img/logo.png` next to other `.png` files is broken; one in a checkout without any
 * `.png`, or in a folder it does not have, is left unchecked).
 */
export function createCheckoutCoverage(paths: readonly string[]): (file: string) => boolean {
  const folders = listFolders(paths);
  const extensions = new Set<string>();
  for (const path of paths) {
    const extension = extensionOf(path);
    if (extension !== null) extensions.add(extension);
  }
  return (file) => {
    const extension = extensionOf(file);
    return extension !== null && extensions.has(extension) && folders.has(folderOf(file));
  };
}

function extensionOf(path: string): string | null {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? null : name.slice(dot + 1).toLowerCase();
}
