import SwellRaster

#if canImport(Glibc)
    import Glibc
#endif

/// Where a touch goes on the shown page: a touch that begins on a button goes to the topmost
/// such button only (not to what is under it), and its end inside the button is a tap that runs
/// the button's action; any other touch goes to every element it began in. Each element gets it
/// in its own coordinates.
struct TouchDispatch {
    /// Fingers whose touch began on a button.
    private var pressed: [Int: Press] = [:]

    private struct Press {
        /// The button's layer index.
        var button: Int
        var x: Double
        var y: Double
        /// Moved farther than `ScenePlayer.tapSlop` from where it went down, on a scrolling page.
        var dragged = false
    }

    /// Forgets the fingers down (another page is shown).
    mutating func reset() { pressed = [:] }

    /// Hands `event` to the elements of `page` it reaches (laid out as `placement` says); returns
    /// the button whose tap it ends, whose action is to run.
    mutating func dispatch(_ event: TouchEvent, to page: inout ScenePage, placement: ElementPlacement) -> Int? {
        if event.phase == .began, let button = topmostButton(at: event, in: page, placement) {
            pressed[event.finger] = Press(button: button, x: event.x, y: event.y)
        }
        if var press = pressed[event.finger] {
            let button = press.button
            let rect = placement.rect(of: button, in: page)
            page.layers[button].handle(placed(event, in: rect))
            if page.height != nil && hypot(event.x - press.x, event.y - press.y) > ScenePlayer.tapSlop {
                press.dragged = true
            }
            pressed[event.finger] = event.phase == .ended ? nil : press
            return event.phase == .ended && !press.dragged && contains(rect, event) ? button : nil
        }
        for index in page.layers.indices {
            let rect = placement.rect(of: index, in: page)
            if event.phase == .began && !contains(rect, event) { continue }
            page.layers[index].handle(placed(event, in: rect))
        }
        return nil
    }

    private func topmostButton(at event: TouchEvent, in page: ScenePage, _ placement: ElementPlacement) -> Int? {
        page.layers.indices.reversed().first {
            page.layers[$0] is ButtonScene && contains(placement.rect(of: $0, in: page), event)
        }
    }

    private func contains(_ rect: ClipRect, _ event: TouchEvent) -> Bool {
        event.x >= Double(rect.x0) && event.x < Double(rect.x1) && event.y >= Double(rect.y0)
            && event.y < Double(rect.y1)
    }

    private func placed(_ event: TouchEvent, in rect: ClipRect) -> TouchEvent {
        var moved = event
        moved.x -= Double(rect.x0)
        moved.y -= Double(rect.y0)
        return moved
    }
}
