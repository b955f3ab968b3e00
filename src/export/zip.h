/* Writing a folder as a zip archive: stored entries (no compression) with
 * CRC-32, the format every unzip and zip library reads, so that export needs
 * no zip program or library. */
#ifndef CR_EXPORT_ZIP_H
#define CR_EXPORT_ZIP_H

#include "coinrow/error.h"

/* The most entries (files and folders) a zip without ZIP64 holds. */
#define CR_ZIP_MAX_ENTRIES 65535u

/* Writes the tree under dir to a new zip file at zip_path: every folder
 * (as "name/") and regular file below dir, paths relative to dir, in name
 * order, with their permission bits and a fixed time stamp (1980-01-01), so
 * that the same tree always gives the same bytes.  Streams each file: flat
 * memory but for one entry per file.  Returns 0, CR_EIO naming the file
 * that cannot be read or written, or CR_EINVAL beyond what a zip without
 * ZIP64 holds (CR_ZIP_MAX_ENTRIES, 4 GiB); a half-written zip_path is removed. */
int cr_zip_dir(const char *zip_path, const char *dir, cr_error *err);

#endif
