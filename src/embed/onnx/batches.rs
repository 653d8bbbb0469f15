//! Texts into model calls. A batch is padded to its longest text, so texts of similar length
//! go together: sorted by token count, cut where a batch would pass its token budget (rows ×
//! width) or its row cap. Each batch lists the places of its texts in the input, so vectors go
//! back in input order. Batches come longest first: workers that take them in turn finish close
//! together (the longest-processing-time rule).
//!
//! Which texts share a batch never changes a vector: the graph masks padding, and each worker's
//! session is single-threaded, so a text's vector is a function of the text alone (a test pins
//! this bit for bit across batch plans and worker counts).

/// One model call: the texts' places in the input, in the batch's row order, and the width
/// every row is padded to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Batch {
    /// Places in the input.
    pub rows: Vec<usize>,
    /// The longest row's token count.
    pub width: usize,
}

impl Batch {
    /// Tokens the call pays for, padding included.
    #[cfg(test)]
    pub(crate) fn tokens(&self) -> usize {
        self.rows.len() * self.width
    }
}

/// The batches of texts whose token counts are `lengths`: at most `max_rows` rows, and at most
/// `max_tokens` padded tokens unless a single text is longer. Ties in length keep input order.
pub(crate) fn plan(lengths: &[usize], max_rows: usize, max_tokens: usize) -> Vec<Batch> {
    let mut order: Vec<usize> = (0..lengths.len()).collect();
    order.sort_by_key(|&i| (lengths[i], i));
    let (max_rows, max_tokens) = (max_rows.max(1), max_tokens.max(1));
    let mut batches: Vec<Batch> = Vec::new();
    let mut current = Batch {
        rows: Vec::new(),
        width: 0,
    };
    for i in order {
        let width = current.width.max(lengths[i]);
        let fits = current.rows.len() < max_rows && (current.rows.len() + 1) * width <= max_tokens;
        if !current.rows.is_empty() && !fits {
            batches.push(std::mem::replace(
                &mut current,
                Batch {
                    rows: Vec::new(),
                    width: 0,
                },
            ));
        }
        current.width = current.width.max(lengths[i]);
        current.rows.push(i);
    }
    if !current.rows.is_empty() {
        batches.push(current);
    }
    // Longest first; equal widths in the order made.
    batches.reverse();
    batches
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_text_goes_into_one_batch_under_both_caps() {
        let lengths = [5, 120, 7, 7, 300, 9, 6, 120, 8];
        let batches = plan(&lengths, 3, 256);
        let mut seen: Vec<usize> = batches.iter().flat_map(|b| b.rows.clone()).collect();
        seen.sort_unstable();
        assert_eq!(seen, (0..lengths.len()).collect::<Vec<_>>());
        for b in &batches {
            assert!(b.rows.len() <= 3);
            assert_eq!(b.width, b.rows.iter().map(|&i| lengths[i]).max().unwrap());
            // Only a text longer than the budget makes a batch over it, alone.
            assert!(b.tokens() <= 256 || b.rows.len() == 1, "{b:?}");
        }
        // Longest first, and similar lengths together.
        assert_eq!(batches[0].rows, [4]);
        assert_eq!(batches.last().unwrap().rows, [0, 6, 2]);
    }

    #[test]
    fn ties_keep_input_order_and_nothing_in_nothing_out() {
        let batches = plan(&[4, 4, 4, 4], 2, 1000);
        assert_eq!(
            batches.iter().map(|b| b.rows.clone()).collect::<Vec<_>>(),
            [vec![2, 3], vec![0, 1]]
        );
        assert!(plan(&[], 8, 100).is_empty());
    }
}
