// The testimonial carousel (SPEC §3/§4): client-only, no server round trip. It renders what
// marketing_site/components/carousel.py gives it (`CarouselProps` there): the items, whether
// previous/next show, the autoplay interval and every label. It holds no setting of its own.
// It renders the current item; "previous" and "next" cycle through the items (wrapping
// around, and with a single item it stays on it but still plays the slide). Clicks during
// the slide (`slideMs`) are ignored. The first render is always item 0 with no animation, so
// the prerendered HTML already holds the first quote and hydration matches it.
// Autoplay (`autoplayMs` > 0; 0 is off): the next item every `autoplayMs`, and a visible
// Pause/Play button (WCAG 2.2.2), shown whether or not previous/next are. Rotation waits while
// the pointer is over the carousel or the keyboard focus is in it (but on that button), stops once the
// visitor pauses, and does not start by itself when the visitor asks for reduced motion (the
// button then offers Play). Rotating, the slides are not announced (aria-live off).
// A visitor's Pause or Play is remembered on this browser: Python passes the remembered choice
// (`rememberedPause`, a client variable: components/carousel.py) and is told of each new one
// (`onPausedChange`); without them, the choice lasts as long as the page.
// Test hooks on the root: data-index, data-animating ("true"/"false"), data-moves,
// data-autoplay ("off" | "rotating" | "paused").
// Reduced motion: the stylesheet swaps the slide for a plain appearance; the lock is kept so
// the behaviour is the same for everyone.
import { useEffect, useRef, useState } from "react";

export function TestimonialCarousel({
  items,
  showControls,
  slideMs,
  autoplayMs,
  label,
  previousLabel,
  nextLabel,
  pauseLabel,
  playLabel,
  className,
  rememberedPause,
  onPausedChange,
}) {
  const count = items ? items.length : 0;
  const autoplay = autoplayMs > 0 && count > 1;
  const [index, setIndex] = useState(0);
  const [moves, setMoves] = useState(0);
  const [direction, setDirection] = useState("next");
  const [animating, setAnimating] = useState(false);
  // The visitor's Pause (or reduced motion on arrival): rotation stays off until Play.
  const [paused, setPaused] = useState(false);
  // Pointer over, or focus inside: rotation waits, the visitor's choice unchanged.
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  // A ref, not state: two clicks in the same tick must not both get through.
  const locked = useRef(false);
  const timer = useRef(null);

  useEffect(() => () => clearTimeout(timer.current), []);

  useEffect(() => {
    if (autoplay && window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches) {
      setPaused(true);
    }
  }, [autoplay]);

  // The visitor paused on an earlier visit (known once the page has hydrated).
  useEffect(() => {
    if (autoplay && rememberedPause) setPaused(true);
  }, [autoplay, rememberedPause]);

  const choosePaused = (value) => {
    setPaused(value);
    if (onPausedChange) onPausedChange(value);
  };

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
    }, slideMs);
  };

  const rotating = autoplay && !paused && !hovered && !focused;
  useEffect(() => {
    if (!rotating) return undefined;
    const interval = setInterval(() => move(1), autoplayMs);
    return () => clearInterval(interval);
    // `move` only reads refs and setters: the interval need not restart with it.
  }, [rotating, autoplayMs]);

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
      data-autoplay={autoplay ? (rotating ? "rotating" : "paused") : "off"}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      // Focus on the Pause/Play button itself does not hold the rotation: Play must play.
      onFocus={(event) => setFocused(!event.target.classList.contains("carousel__button--pause"))}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) setFocused(false);
      }}
    >
      <div className="carousel__viewport" aria-live={rotating ? "off" : "polite"}>
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
      {showControls || autoplay ? (
        <div className="carousel__controls">
          {autoplay ? (
            <button
              type="button"
              className="carousel__button carousel__button--pause"
              aria-label={paused ? playLabel : pauseLabel}
              data-paused={paused ? "true" : "false"}
              onClick={() => choosePaused(!paused)}
            >
              <span className={paused ? "carousel__play" : "carousel__pause"} aria-hidden="true" />
            </button>
          ) : null}
          {showControls ? (
            <>
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
            </>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
