import CCairo
import Glibc
import SwellDrawList
import SwellRaster

/// Draws a frame with Cairo the way a competent Cairo user would: an RGB24 image surface of the
/// frame's size, default antialiasing and tolerance, straight-alpha colours through
/// cairo_set_source_rgba, rings as stroked arcs, waves as paths with one vertex per pixel column
/// (wave strokes with round caps, as the format defines them).
///
/// The surface and context are made once; each frame repaints everything, as an animation would.
final class CairoRenderer {
    private let surface: OpaquePointer
    private let context: OpaquePointer
    let width: Int
    let height: Int

    init(width: Int, height: Int) {
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height)),
            cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS
        else { fatalError("Cairo could not create a \(width)x\(height) RGB24 image surface") }
        self.surface = surface
        context = cairo_create(surface)
        self.width = width
        self.height = height
    }

    deinit {
        cairo_destroy(context)
        cairo_surface_destroy(surface)
    }

    /// The rendered pixels as a surface view (RGB24 is XRGB8888 in native byte order). The view
    /// keeps this renderer, and so Cairo's surface memory, alive while it is in use.
    var pixels: PixelSurface {
        cairo_surface_flush(surface)
        return PixelSurface(
            base: UnsafeMutableRawPointer(cairo_image_surface_get_data(surface)!),
            width: width, height: height, stride: Int(cairo_image_surface_get_stride(surface)), owner: self)
    }

    /// The text ops of the list being drawn, by command index (set by the bench).
    var text: CairoText?
    private var textIndexByCommand: [Int: Int] = [:]

    func setTexts(_ texts: [TextOp]) {
        text = texts.isEmpty ? nil : CairoText(texts: texts)
        textIndexByCommand = [:]
        for (i, op) in texts.enumerated() { textIndexByCommand[op.commandIndex] = i }
    }

    /// Draws a draw list's frame: shapes only (no layers or pictures).
    func render(_ frame: DisplayList) {
        let cr = context
        cairo_set_source_rgb(cr, frame.background.r, frame.background.g, frame.background.b)
        cairo_paint(cr)
        for (index, frameCommand) in frame.commands.enumerated() {
            guard case .draw(let command) = frameCommand else { preconditionFailure("a draw list holds shapes only") }
            let color = command.color
            cairo_set_source_rgba(cr, color.r, color.g, color.b, color.a)
            if let clip = command.clip {
                cairo_save(cr)
                cairo_rectangle(
                    cr, Double(clip.x0), Double(clip.y0), Double(clip.x1 - clip.x0), Double(clip.y1 - clip.y0))
                cairo_clip(cr)
            }
            switch command.shape {
            case .ring(let ring): drawRing(ring)
            case .disc(let disc):
                cairo_arc(cr, disc.centerX, disc.centerY, disc.radius, 0, 2 * Double.pi)
                cairo_fill(cr)
            case .waveFill(let wave): fillWave(wave)
            case .waveStroke(let stroke): strokeWave(stroke)
            case .path(let path): fillPath(path)
            case .glyphs: if let t = textIndexByCommand[index] { text?.draw(t, cr) }
            }
            if command.clip != nil { cairo_restore(cr) }
        }
        cairo_surface_flush(surface)
    }

    private func drawRing(_ ring: Ring) {
        let halfWidth = ring.width / 2
        if ring.radius >= halfWidth {
            cairo_arc(context, ring.centerX, ring.centerY, ring.radius, 0, 2 * Double.pi)
            cairo_set_line_width(context, ring.width)
            cairo_stroke(context)
        } else {
            // The band radius ± width/2 reaches the centre: the shape is a disc, which a stroke of a
            // tiny (or zero-radius) arc would not draw.
            cairo_arc(context, ring.centerX, ring.centerY, ring.radius + halfWidth, 0, 2 * Double.pi)
            cairo_fill(context)
        }
    }

    /// A closed path, non-zero winding; quadratics become the equivalent cubics.
    private func fillPath(_ path: Path) {
        var current = (x: 0.0, y: 0.0)
        var start = current
        for element in path.elements {
            switch element {
            case .move(let x, let y):
                cairo_move_to(context, x, y)
                current = (x, y)
                start = current
            case .line(let x, let y):
                cairo_line_to(context, x, y)
                current = (x, y)
            case .quad(let cx, let cy, let x, let y):
                cairo_curve_to(
                    context, current.x + 2 / 3 * (cx - current.x), current.y + 2 / 3 * (cy - current.y),
                    x + 2 / 3 * (cx - x), y + 2 / 3 * (cy - y), x, y)
                current = (x, y)
            case .close:
                cairo_close_path(context)
                current = start
            }
        }
        cairo_set_fill_rule(context, CAIRO_FILL_RULE_WINDING)
        cairo_fill(context)
    }

    /// y ≥ f(x): the curve through one vertex per pixel column, closed along the bottom edge.
    private func fillWave(_ wave: Wave) {
        let angleStep = 2 * Double.pi / wave.wavelength
        cairo_move_to(context, 0, wave.baseline + wave.amplitude * sin(wave.phase))
        for column in 1...width {
            let x = Double(column)
            cairo_line_to(context, x, wave.baseline + wave.amplitude * sin(angleStep * x + wave.phase))
        }
        cairo_line_to(context, Double(width), Double(height))
        cairo_line_to(context, 0, Double(height))
        cairo_close_path(context)
        cairo_fill(context)
    }

    /// The enveloped curve over 0...length, one vertex per pixel column, stroked `width` wide.
    private func strokeWave(_ stroke: WaveStroke) {
        let wave = stroke.wave
        let angleStep = 2 * Double.pi / wave.wavelength
        let half = stroke.length / 2
        let columns = Int(stroke.length.rounded(.up))
        for column in 0...columns {
            let x = min(Double(column), stroke.length)
            let envelope: Double
            switch stroke.envelope {
            case .none: envelope = 1
            case .parabola:
                let u = (x - half) / half
                envelope = 1 - u * u
            }
            let y = wave.baseline + envelope * wave.amplitude * sin(angleStep * x + wave.phase)
            if column == 0 { cairo_move_to(context, x, y) } else { cairo_line_to(context, x, y) }
        }
        cairo_set_line_width(context, stroke.width)
        // The width is measured along the normals (bench-data/README.md), so the ends are
        // Cairo's default butt caps, cut by the normals at x = 0 and x = W.
        cairo_set_line_cap(context, CAIRO_LINE_CAP_BUTT)
        cairo_stroke(context)
    }
}
