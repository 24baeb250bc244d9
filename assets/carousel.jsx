// The testimonial carousel (SPEC §3/§4): client-only, no server round trip.
// It renders the current item; "previous" and "next" cycle through the items (wrapping
// around, and with a single item it stays on it but still plays the slide). Clicks during
// the 500 ms slide are ignored. The first render is always item 0 with no animation, so the
// prerendered HTML already holds the first quote and hydration matches it.
// Test hooks on the root: data-index, data-animating ("true"/"false"), data-moves.
// Reduced motion: the stylesheet swaps the slide for a plain appearance; the 500 ms lock
// is kept so the behaviour is the same for everyone.
import { useEffect, useRef, useState } from "react";

const SLIDE_MS = 500;

export function TestimonialCarousel({
  items,
  showControls,
  label,
  previousLabel,
  nextLabel,
  className,
}) {
  const count = items ? items.length : 0;
  const [index, setIndex] = useState(0);
  const [moves, setMoves] = useState(0);
  const [direction, setDirection] = useState("next");
  const [animating, setAnimating] = useState(false);
  // A ref, not state: two clicks in the same tick must not both get through.
  const locked = useRef(false);
  const timer = useRef(null);

  useEffect(() => () => clearTimeout(timer.current), []);

  const move = (step) => {
    if (locked.current || count === 0) return;
    locked.current = true;
    setIndex((current) => (current + step + count) % count);
    setMoves((n) => n + 1);
    setDirection(step > 0 ? "next" : "previous");
    setAnimating(true);
    timer.current = setTimeout(() => {
      locked.current = false;
      setAnimating(false);
    }, SLIDE_MS);
  };

  if (count === 0) return null;
  const item = items[index];
  return (
    <div
      className={className}
      role="region"
      aria-roledescription="carousel"
      aria-label={label}
      data-index={index}
      data-animating={animating ? "true" : "false"}
      data-moves={moves}
    >
      <div className="carousel__viewport" aria-live="polite">
        {/* A new key on every move remounts the slide, which restarts its animation. */}
        <figure
          key={moves}
          className="carousel__slide"
          data-direction={moves > 0 ? direction : "none"}
        >
          <img className="carousel__portrait" src={item.image} alt="" width="120" height="120" />
          <blockquote className="carousel__quote">
            <p>{item.quote}</p>
          </blockquote>
          <figcaption className="carousel__caption">
            <span className="carousel__person">
              <span className="carousel__name">{item.name}</span>
              <span className="carousel__job">{item.job}</span>
            </span>
            <img className="carousel__logo" src={item.logo} alt={item.company} width="160" height="40" />
          </figcaption>
        </figure>
      </div>
      {showControls ? (
        <div className="carousel__controls">
          <button
            type="button"
            className="carousel__button carousel__button--previous"
            aria-label={previousLabel}
            onClick={() => move(-1)}
          >
            <span className="carousel__chevron" aria-hidden="true" />
          </button>
          <span className="carousel__position" aria-hidden="true">
            {index + 1} / {count}
          </span>
          <button
            type="button"
            className="carousel__button carousel__button--next"
            aria-label={nextLabel}
            onClick={() => move(1)}
          >
            <span className="carousel__chevron" aria-hidden="true" />
          </button>
        </div>
      ) : null}
    </div>
  );
}
