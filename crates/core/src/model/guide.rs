//! Guides: lines a model carries for the viewer to draw over its surfaces, not as part of
//! them — a map's tile grid, structure footprints, gateways and start positions. Each
//! belongs to a node: it is drawn where that node is shown, in that node's space, so
//! hiding the node (a map layer) hides its guides. The renderer draws every guide the
//! same way, whatever the model's format.

use glam::Vec3;

/// A polyline in its node's space, with an optional short label at its first point.
#[derive(Debug, Clone, PartialEq)]
pub struct Guide {
    /// The node whose space the points are in and whose visibility the guide follows.
    pub node: usize,
    /// The line's points, in order (at least two).
    pub points: Vec<Vec3>,
    /// Whether the last point joins the first.
    pub closed: bool,
    /// sRGB colour with straight alpha.
    pub colour: [u8; 4],
    /// Line width, pixels.
    pub width: f32,
    /// Text written next to the first point (digits and a few letters: the renderer's
    /// line font), if any.
    pub label: Option<String>,
}

impl Guide {
    /// An open polyline of `points` in `node`'s space.
    pub fn line(node: usize, points: Vec<Vec3>, colour: [u8; 4], width: f32) -> Guide {
        Guide {
            node,
            points,
            closed: false,
            colour,
            width,
            label: None,
        }
    }

    /// The same line, closed into a loop.
    pub fn closed(mut self) -> Guide {
        self.closed = true;
        self
    }

    /// The same line, labelled `text` at its first point.
    pub fn labelled(mut self, text: impl Into<String>) -> Guide {
        self.label = Some(text.into());
        self
    }

    /// Its segments, each as two points (the closing one included).
    pub fn segments(&self) -> impl Iterator<Item = (Vec3, Vec3)> + '_ {
        let n = self.points.len();
        let count = if self.closed && n > 2 {
            n
        } else {
            n.saturating_sub(1)
        };
        (0..count).map(move |i| (self.points[i], self.points[(i + 1) % n]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_closed_guide_joins_its_last_point_to_its_first() {
        let p = |x: f32| Vec3::new(x, 0.0, 0.0);
        let open = Guide::line(0, vec![p(0.0), p(1.0), p(2.0)], [255; 4], 1.0);
        assert_eq!(
            open.segments().collect::<Vec<_>>(),
            vec![(p(0.0), p(1.0)), (p(1.0), p(2.0))]
        );
        let closed = open.clone().closed();
        assert_eq!(closed.segments().count(), 3);
        assert_eq!(closed.segments().last(), Some((p(2.0), p(0.0))));
        // Two points closed are still one segment, one point none.
        let two = Guide::line(0, vec![p(0.0), p(1.0)], [255; 4], 1.0).closed();
        assert_eq!(two.segments().count(), 1);
        assert_eq!(
            Guide::line(0, vec![p(0.0)], [255; 4], 1.0)
                .segments()
                .count(),
            0
        );
    }
}
