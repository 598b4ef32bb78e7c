"""A picture a PDF stores once as a form (output.reuse) prints as it would drawn in place."""
from __future__ import annotations

import io

import pypdf
from reportlab.graphics.shapes import Group
from reportlab.lib.colors import HexColor

from printgen.core.paper import Paper
from printgen.drawing.document import Document, Page
from printgen.drawing.picture import rect
from printgen.output import pdf
from printgen.output.reuse import reusable

PAPER = Paper("test", 100.0, 100.0)


def test_a_form_holds_the_graphics_states_and_colour_spaces_its_shapes_name():
    """A picture stored once as a form (a piece's back, drawn from a user's template with
    fill-opacity, or a spot colour) names its opacity's graphics state and its colour space in its
    own content, so its own resources must list them: reportlab gives a form only fonts and forms,
    and without them the opacity printed opaque and the spot colour black."""
    import pypdfium2
    from reportlab.lib.colors import CMYKColorSep

    faded = rect(2, 2, 20, 10, fill=HexColor("#336699"))
    faded.fillOpacity = 0.5
    spot = rect(30, 2, 20, 10, fill=CMYKColorSep(0, 0.5, 1, 0, spotName="Gold"))
    data = pdf.render_pdf(Document("t.pdf", PAPER, [], "forms"), [Page([reusable(Group(faded, spot))])], [])
    reader = pypdf.PdfReader(io.BytesIO(data))
    (form,) = [x.get_object() for x in reader.pages[0]["/Resources"]["/XObject"].values()]
    resources = form["/Resources"]
    assert list(resources["/ExtGState"]) == ["/gRLs0"] and list(resources["/ColorSpace"]) == ["/Gold"]
    picture = pypdfium2.PdfDocument(data)[0].render(scale=1).to_pil().convert("RGB")
    per_mm = 72 / 25.4
    faded_pixel = picture.getpixel((int(10 * per_mm), int(picture.height - 6 * per_mm)))
    spot_pixel = picture.getpixel((int(40 * per_mm), int(picture.height - 6 * per_mm)))
    assert all(abs(a - b) <= 2 for a, b in zip(faded_pixel, (153, 178, 204)))  # half of #336699 on white
    assert spot_pixel != (0, 0, 0)
