"""Reference rules service for Pineapple OFC, Joker Thirteen and Taiwanese Big Two."""
