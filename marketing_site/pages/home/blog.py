"""Three blog cards (external links to the blog) and, on the English page, a blog button."""

from __future__ import annotations

import reflex as rx

from marketing_site.components import sections
from marketing_site.components.links import button_link, link
from marketing_site.content.home import POST_IMAGES
from marketing_site.settings import get_settings


def _post(post: dict, blog_url: str) -> rx.Component:
    # The title is the link; CSS stretches it over the whole card.
    return rx.el.article(
        sections.image(POST_IMAGES[post["post"]], "", 400, 220, class_name="home-post__img"),
        rx.el.div(
            rx.el.p(post["category"], class_name="home-post__category"),
            rx.el.h3(
                link(post["title"], f"{blog_url}/{post['slug']}", class_name="home-post__link"),
                class_name="home-post__title",
            ),
            rx.el.p(post["excerpt"], class_name="home-post__excerpt"),
            rx.el.p(post["read_time"], class_name="home-post__meta"),
            class_name="home-post__body",
        ),
        class_name="home-post",
    )


def blog(text: dict) -> rx.Component:
    blog_url = get_settings().blog_url.rstrip("/")
    return sections.section(
        text["title"],
        rx.el.div(*[_post(post, blog_url) for post in text["posts"]], class_name="card-grid card-grid--3"),
        rx.el.div(
            button_link(text["visit_label"], blog_url, variant="secondary"),
            class_name="button-row home-blog__more",
        )
        if text["show_visit"]
        else rx.fragment(),
        intro=text["intro"],
    )
