const DEFAULT_PICTURE = '/default-avatar.svg';

/** A person's picture, or the default one when they have none. Decorative: the name is shown next to it. */
export function ProfilePicture({ url, className = '' }: { url: string | null; className?: string }) {
  return (
    <img src={url ?? DEFAULT_PICTURE} alt="" width={100} height={100} className={`avatar ${className}`} />
  );
}
