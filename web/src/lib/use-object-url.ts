import { useEffect, useState } from 'react';

/**
 * A browser URL for a chosen file (for a preview) or fetched bytes (an image that needed the bearer
 * token), revoked when the file changes or the component goes.
 */
export function useObjectUrl(file: Blob | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file) {
      setUrl(null);
      return undefined;
    }
    const objectUrl = URL.createObjectURL(file);
    setUrl(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [file]);
  return url;
}
