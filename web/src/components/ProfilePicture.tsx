const DEFAULT_PICTURE = '/default-avatar.svg';

/**
 * A person's picture, or the default one when they have none. Decorative by default (the name is
 * shown next to it); pass `alt` where the picture itself is the subject.
 */
export function ProfilePicture({
  url,
  className = '',
  alt = '',
}: {
  url: string | null;
  className?: string;
  alt?: string;
}) {
  return (
    <img src={url ?? DEFAULT_PICTURE} alt={alt} width={100} height={100} className={`avatar ${className}`} />
  );
}
